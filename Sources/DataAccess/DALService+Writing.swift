import Dispatch
import Foundation
import OpenCoreData

extension DALService {
    // MARK: - Writing

    /// Runs `changes` on a scratch context, on the caller's thread, and saves it all the
    /// way to disk before returning; the main context merges the changes before the next
    /// read. A thrown error, or a failed save, goes to `handleError(_:)` and leaves nothing
    /// behind: no row on disk, no change in the root or a shared scratch context.
    ///
    /// Returns `self`, so calls chain: `dal.writeSync { … }.writeSync { … }.read { … }`
    /// runs them in order, each finished when the next starts.
    @discardableResult
    public func writeSync(_ changes: (ManagedObjectContext) throws -> Void) -> Self {
        if let error = commitWrite(changes) { report(error) }
        return self
    }

    /// `writeSync(_:)`, then `completion` exactly once, on the caller's thread, after the
    /// save: with nil, or with the error (which `handleError(_:)` got first).
    @discardableResult
    public func writeSync(_ changes: (ManagedObjectContext) throws -> Void, completion: ((any Error)?) -> Void) -> Self {
        let error = commitWrite(changes).map(report)
        completion(error)
        return self
    }

    /// Runs `changes` on a scratch context off the main queue and saves it all the way to
    /// disk; returns at once. Errors go to `handleError(_:)`.
    public func writeAsync(_ changes: @escaping @Sendable (ManagedObjectContext) throws -> Void) {
        writeAsync(changes, completion: nil)
    }

    /// `writeAsync(_:)`, then `completion` exactly once, on the main queue, after the save:
    /// with nil, or with the error (which `handleError(_:)` got first). A program that
    /// never drives the main queue never gets it: use `write(_:)` there.
    public func writeAsync(
        _ changes: @escaping @Sendable (ManagedObjectContext) throws -> Void,
        completion: (@Sendable ((any Error)?) -> Void)?
    ) {
        DispatchQueue.global().async { [self] in
            let error = commitWrite(changes).map(report)
            guard let completion else { return }
            DispatchQueue.main.async { completion(error) }
        }
    }

    /// Runs `changes` on a scratch context off the main queue, saves it all the way to
    /// disk, and returns its value. An error is thrown (after `handleError(_:)` got it).
    public func write<T: Sendable>(_ changes: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            DispatchQueue.global().async { [self] in
                var value: T?
                if let error = commitWrite({ value = try changes($0) }) {
                    continuation.resume(throwing: report(error))
                } else if let value {
                    continuation.resume(returning: value)
                }
            }
        }
    }

    // MARK: - Committing

    /// Runs `changes` on a scratch context and saves scratch → root → disk; nil when all
    /// of it succeeded. On failure the root and a shared scratch hold none of the write's
    /// changes. Never touches the main queue.
    func commitWrite(_ changes: (ManagedObjectContext) throws -> Void) -> (any Error)? {
        let stack = stack
        do { try stack.waitUntilLoaded() } catch { return error }
        let scratch = stack.makeScratch()
        let failure = scratch.performAndWait { () -> (any Error)? in
            do {
                try changes(scratch)
                scratch.processPendingChanges()
                guard scratch.hasChanges else { return nil }
                try commitLock.withLock {
                    guard stack === self.stack else {
                        throw CoreDataError(.stackNuked, "DataAccess: nuke() replaced the stack while this write ran; it was not saved.")
                    }
                    try scratch.save()
                    try saveRoot(of: stack)
                }
                return nil
            } catch {
                // A shared scratch must start the next write clean; a per-write one is dropped.
                scratch.reset()
                return error
            }
        }
        // Called where the main context may be used: merge now, so that the caller's
        // next statement already sees the write.
        if failure == nil, MainQueue.mayUseMainContext { stack.mergePendingSaves() }
        return failure
    }

    /// Saves the root to disk (under `commitLock`); on failure takes the unsaved changes
    /// back out of the root, so that they cannot ride along with the next save.
    func saveRoot(of stack: DALStack) throws {
        try stack.root.performAndWait {
            guard stack.root.hasChanges else { return }
            do {
                try stack.root.save()
            } catch {
                stack.root.rollback()
                throw error
            }
        }
    }
}
