import Foundation

/// Records the notifications with the given names that `object` posts on
/// `NotificationCenter.default`, in order, from whichever thread posts them, until it is
/// deallocated or `stop()` is called.
package final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: `recorded` is read and written under `lock` only.
    private let lock = NSLock()
    private var recorded: [Notification] = []
    private var tokens: [any NSObjectProtocol] = []

    package init(_ names: [Notification.Name], object: AnyObject?) {
        tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
                self?.lock.withLock { self?.recorded.append(note) }
            }
        }
    }

    deinit { stop() }

    /// Stops recording.
    package func stop() {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
        tokens = []
    }

    /// The notifications so far.
    package var notifications: [Notification] { lock.withLock { recorded } }

    /// The names of the notifications so far, in order.
    package var names: [Notification.Name] { notifications.map(\.name) }

    /// Forgets the notifications so far.
    package func clear() { lock.withLock { recorded.removeAll() } }
}
