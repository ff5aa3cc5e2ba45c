import Foundation
@testable import OpenCoreData

/// Records the `storeRemoteChangeNotification`s a coordinator posts: when each arrived,
/// its `userInfo`, and whether it was posted on the coordinator's queue.
final class RemoteChangeRecorder: @unchecked Sendable {
    // @unchecked Sendable: `received` is read and written under `condition` only.
    struct Received {
        let time: Date
        let userInfo: [AnyHashable: Any]
        let onCoordinatorsQueue: Bool
        let onMainThread: Bool
    }

    private let condition = NSCondition()
    private var received: [Received] = []
    private var token: (any NSObjectProtocol)?

    init(_ coordinator: PersistentStoreCoordinator) {
        token = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { [weak self, weak coordinator] note in
            let onQueue = coordinator?.isOnRemoteChangeQueue ?? false
            let entry = Received(time: Date(), userInfo: note.userInfo ?? [:], onCoordinatorsQueue: onQueue, onMainThread: Thread.isMainThread)
            guard let self else { return }
            condition.withLock {
                received.append(entry)
                condition.broadcast()
            }
        }
    }

    deinit { stop() }

    func stop() {
        if let token { NotificationCenter.default.removeObserver(token) }
        token = nil
    }

    var all: [Received] { condition.withLock { received } }

    func clear() { condition.withLock { received.removeAll() } }

    /// The first notification that arrived at or after `time`, waiting up to `timeout`
    /// for it; nil if none came.
    func first(after time: Date, timeout: TimeInterval) -> Received? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = received.first(where: { $0.time >= time }) { return found }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits `quiet` seconds and returns the notifications that arrived after `time`.
    func arrivals(after time: Date, waiting quiet: TimeInterval) -> [Received] {
        Thread.sleep(forTimeInterval: quiet)
        return all.filter { $0.time >= time }
    }
}

/// The descriptors of this process that refer to `folder`: files in it (a store's
/// connection: the file, its `-wal` and `-shm`) and inotify instances watching it (read
/// from `/proc/self/fdinfo`, whose `ino:` is the watched inode in hex). Precise while
/// other tests open and close descriptors of their own.
enum FolderDescriptors {
    struct Count: Equatable, CustomStringConvertible {
        var files = 0
        var inotifyWatches = 0
        var description: String { "\(files) file(s), \(inotifyWatches) inotify watch(es)" }
    }

    static func count(_ folder: URL) -> Count {
        var count = Count()
        var info = stat()
        guard stat(folder.path, &info) == 0 else { return count }
        let inode = "ino:" + String(UInt64(info.st_ino), radix: 16) + " "
        let folderPath = folder.resolvingSymlinksInPath().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for name in names {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)") {
                if target.hasPrefix(folderPath + "/") || target.hasPrefix(folder.path + "/") { count.files += 1 }
                if target.contains("inotify"), let text = try? String(contentsOfFile: "/proc/self/fdinfo/\(name)", encoding: .utf8),
                   text.split(separator: "\n").contains(where: { $0.hasPrefix("inotify ") && $0.contains(inode) }) {
                    count.inotifyWatches += 1
                }
            }
        }
        return count
    }

    /// `count(folder)` once `done` holds for it, or after `timeout` (a released watcher's
    /// inotify descriptor is closed on its queue, just after the release).
    static func settle(_ folder: URL, timeout: TimeInterval = 2, until done: (Count) -> Bool) -> Count {
        let deadline = Date().addingTimeInterval(timeout)
        var now = count(folder)
        while !done(now), Date() < deadline {
            usleep(5_000)
            now = count(folder)
        }
        return now
    }
}
