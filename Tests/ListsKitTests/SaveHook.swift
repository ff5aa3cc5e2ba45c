import Foundation
import OpenCoreData

/// Runs `body` when `context` starts its first save (`willSaveObjectsNotification`, on the
/// context's queue), and counts the saves it sees: lets a test slip another writer's
/// commit in between a context's reads and its save.
final class SaveHook: @unchecked Sendable {
    // @unchecked Sendable: `calls`, `body` and `observer` are only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    private var body: (@Sendable () throws -> Void)?
    private var observer: (any NSObjectProtocol)?

    init(context: ManagedObjectContext, body: @escaping @Sendable () throws -> Void) {
        self.body = body
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.willSaveObjectsNotification, object: context, queue: nil) { [weak self] _ in
            self?.saveStarted()
        }
        lock.withLock { self.observer = observer }
    }

    private func saveStarted() {
        let body = lock.withLock {
            count += 1
            defer { self.body = nil }
            return self.body
        }
        try? body?()
    }

    /// How many saves the context started.
    var calls: Int { lock.withLock { count } }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}
