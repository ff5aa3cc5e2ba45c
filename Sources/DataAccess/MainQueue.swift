import Dispatch
import Foundation
import OpenCoreData

/// Where the main context may be used, and a bounded hop onto the main queue.
///
/// "On the main queue" is decided by queue identity (a specific set on
/// `DispatchQueue.main`), not by `Thread.isMainThread`: an async program on Linux (the
/// Swift Testing runner, a server) runs main-queue blocks on a worker thread. Code on the
/// main thread outside any queue block (a command-line program that never drives the main
/// queue) may use the main context directly too, as Core Data allows.
enum MainQueue {
    /// Whether the caller may use the main context directly
    /// (`ManagedObjectContext.callerHoldsMainQueue`): in a main-queue block, on the main
    /// thread, or in a write's block run inline further down such a caller's stack.
    static var mayUseMainContext: Bool { ManagedObjectContext.callerHoldsMainQueue }

    /// Runs `body` on the main queue and waits for it; inline when the caller may already
    /// use the main context. When the main queue has not started the block within
    /// `timeout` (the main thread is blocked, or the program never drives the main queue),
    /// the block is withdrawn — it will never run — and `.mainQueueUnavailable` is thrown.
    static func run<T>(timeout: TimeInterval, _ body: @escaping () throws -> T) throws -> T {
        if mayUseMainContext { return try body() }
        let hop = Hop(body)
        let done = DispatchSemaphore(value: 0)
        hop.onFinish = { done.signal() }
        hop.schedule(timeout: timeout)
        done.wait()
        return try hop.outcome()
    }

    /// The async form of `run(timeout:_:)`: suspends instead of blocking a thread.
    static func run<T: Sendable>(timeout: TimeInterval, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let hop = Hop(body)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            hop.onFinish = { continuation.resume(with: Result { try hop.outcome() }) }
            hop.schedule(timeout: timeout)
        }
    }

    /// The error of a hop that could not happen.
    static func unavailable(after timeout: TimeInterval) -> CoreDataError {
        CoreDataError(.mainQueueUnavailable, "DataAccess: the main queue did not run a read within \(timeout) s: the main thread is blocked or the program does not drive the main queue. Call dispatchMain(), run RunLoop.main, or use Swift concurrency's main actor; read on the main thread itself; or raise DALService.mainQueueTimeout.")
    }
}

/// One block offered to the main queue, which either the main queue claims (and runs) or
/// the timeout withdraws — never both, so a withdrawn block never runs later.
private final class Hop<T>: @unchecked Sendable {
    // @unchecked Sendable: `state`, `result` and `onFinish` are only touched under `lock`
    // or after the state machine handed them to exactly one thread.
    private enum State { case offered, running, finished, withdrawn }

    private let lock = NSLock()
    private var state = State.offered
    private var body: (() throws -> T)?
    private var result: Result<T, any Error>?
    private var timeout: TimeInterval = 0
    /// Called exactly once, when the block finished or was withdrawn.
    var onFinish: (() -> Void)?

    init(_ body: @escaping () throws -> T) { self.body = body }

    func schedule(timeout: TimeInterval) {
        self.timeout = timeout
        DispatchQueue.main.async { self.runOnMain() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { self.withdraw() }
    }

    private func runOnMain() {
        let body: (() throws -> T)? = lock.withLock {
            guard state == .offered else { return nil }
            state = .running
            defer { self.body = nil }
            return self.body
        }
        guard let body else { return }
        let result = Result { try body() }
        finish { self.result = result; state = .finished }
    }

    private func withdraw() {
        let withdrawn = lock.withLock {
            guard state == .offered else { return false }
            state = .withdrawn
            body = nil
            result = .failure(MainQueue.unavailable(after: timeout))
            return true
        }
        if withdrawn { onFinish?() }
    }

    private func finish(_ update: () -> Void) {
        lock.withLock(update)
        onFinish?()
    }

    func outcome() throws -> T {
        guard let result = lock.withLock({ result }) else { preconditionFailure("MainQueue.Hop: outcome read before the hop finished") }
        return try result.get()
    }
}

extension CoreDataError.Code {
    /// DataAccess needed the main queue (a `read`), and it did not run the block in time.
    public static let mainQueueUnavailable = CoreDataError.Code(rawValue: 200100, name: "mainQueueUnavailable")
    /// A write began on a stack that `nuke()` replaced before the write could save.
    public static let stackNuked = CoreDataError.Code(rawValue: 200101, name: "stackNuked")
}
