import Dispatch
import Foundation
import OpenCoreData

extension DALService {
    // MARK: - Reading

    /// Runs `statements` on the main context, on the main queue, and waits for them; every
    /// write that finished before this call is merged into the context first.
    ///
    /// Called on the main queue or the main thread, it runs inline (a command-line
    /// program that never drives the main queue reads this way). Called from elsewhere, it
    /// waits for the main queue; when the main queue does not start the block within
    /// `mainQueueTimeout` it gives up: the block never runs and `handleError(_:)` gets
    /// `.mainQueueUnavailable`. A thrown error goes to `handleError(_:)` too.
    ///
    /// Returns `self`, for chaining.
    @discardableResult
    public func read(_ statements: @escaping (ManagedObjectContext) throws -> Void) -> Self {
        if let error = performRead(statements) { report(error) }
        return self
    }

    /// `read(_:)`, then `completion` exactly once, on the caller's thread: with nil, or
    /// with the error (which `handleError(_:)` got first).
    @discardableResult
    public func read(_ statements: @escaping (ManagedObjectContext) throws -> Void, completion: ((any Error)?) -> Void) -> Self {
        completion(performRead(statements).map(report))
        return self
    }

    /// Runs `statements` on the main context, on the main queue, and returns their value.
    /// Errors (including `.mainQueueUnavailable` after `mainQueueTimeout`) are thrown
    /// after `handleError(_:)` got them.
    public func read<T: Sendable>(_ statements: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let stack = stack
        do {
            try stack.waitUntilLoaded()
            return try await MainQueue.run(timeout: mainQueueTimeout) {
                try Self.runRead(on: stack, statements)
            }
        } catch {
            throw report(error)
        }
    }

    /// The one read path: nil when `statements` ran and returned.
    private func performRead(_ statements: @escaping (ManagedObjectContext) throws -> Void) -> (any Error)? {
        let stack = stack
        do {
            try stack.waitUntilLoaded()
            try MainQueue.run(timeout: mainQueueTimeout) { try Self.runRead(on: stack, statements) }
            return nil
        } catch {
            return error
        }
    }

    /// Where the main context may be used: merges the finished writes, runs `statements`,
    /// and closes the event they made.
    private static func runRead<T>(on stack: DALStack, _ statements: (ManagedObjectContext) throws -> T) throws -> T {
        stack.mergePendingSaves()
        defer { stack.main.processPendingChanges() }
        return try statements(stack.main)
    }
}
