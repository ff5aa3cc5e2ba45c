import Dispatch
import Foundation
import Logging

/// Posts `PersistentStoreCoordinator.storeRemoteChangeNotification` for one store of a
/// coordinator whenever a change is committed to it, by anyone.
///
/// How a commit is detected (`Detection`):
/// - SQLite store on Linux: inotify on the store's folder wakes the watcher when the store
///   file, its `-wal` or its `-journal` is written; `PRAGMA data_version` on a read-only
///   connection of the watcher's own then says whether a commit happened (it changes for
///   every other connection's commit, this coordinator's included:
///   <https://sqlite.org/pragma.html#pragma_data_version>).
/// - SQLite store without inotify (macOS, or inotify failed): the same check every
///   `pollingInterval`.
/// - In-memory store: this coordinator's own saves and batch requests (nothing else can
///   write it).
///
/// Checks run on the watcher's serial queue, `Timing.debounce` after the first write
/// seen, so a burst of commits is posted once; follow-up checks (`Timing.followUps` after
/// the last write) catch a commit whose last file write came before a slow `fsync`.
final class RemoteChangeWatcher: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is read and written on `queue` only
    // (`stop()` goes through it too); `store` and the constants are immutable.

    /// When checks run. A commit is posted at most `debounce` + one check after its first
    /// file write (inotify), or `pollingInterval` + one check after it (polling).
    enum Timing {
        /// From a write seen to the check that confirms and posts it.
        static let debounce = DispatchTimeInterval.milliseconds(10)
        /// Checks after the last write seen, for a commit that lands after its last write.
        static let followUps: [DispatchTimeInterval] = [.milliseconds(40), .milliseconds(100), .milliseconds(250), .milliseconds(600)]
        /// The period of the polling fallback.
        static let pollingInterval = DispatchTimeInterval.milliseconds(100)
    }

    /// How commits are noticed.
    enum Detection: String, Sendable {
        /// inotify wakes a `PRAGMA data_version` check (Linux).
        case fileEvents
        /// `PRAGMA data_version` every `Timing.pollingInterval` (no inotify).
        case polling
        /// The coordinator's own writes (in-memory stores).
        case ownWrites
    }

    let queue: DispatchQueue
    let store: PersistentStore
    let detection: Detection
    private weak var coordinator: PersistentStoreCoordinator?
    /// The watcher's own read-only connection (SQLite stores), and its last `data_version`.
    private var connection: SQLiteConnection?
    private var lastDataVersion: Int64?
    private var monitor: FolderWriteMonitor?
    /// Runs the checks; made by `start()` (Dispatch traps on releasing a source never
    /// activated, so none is made before the watcher surely starts).
    private var timer: (any DispatchSourceTimer)?
    /// An own write not yet posted (in-memory stores).
    private var ownWritePending = false
    /// When the next check is due (nil: none scheduled).
    private var nextCheck: DispatchTime?
    private var lastWrite = DispatchTime.now()
    private var writesSinceCheck = false
    /// The next of `Timing.followUps` to schedule.
    private var followUp = Timing.followUps.count
    private var stopped = false
    /// Set on each watcher's queue to the watcher's identity.
    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private static let logger = Logger(label: "OpenCoreData.RemoteChangeWatcher")

    /// A watcher for `store` (not started).
    ///
    /// - Throws: `.storeOpenFailed` when the watcher's connection to a SQLite store cannot
    ///   be opened.
    init(store: PersistentStore, coordinator: PersistentStoreCoordinator, forcePolling: Bool) throws {
        self.store = store
        self.coordinator = coordinator
        queue = DispatchQueue(label: "OpenCoreData.PersistentStoreCoordinator.remoteChange")
        guard store.type == .sqlite, let url = store.url else {
            detection = .ownWrites
            return
        }
        let connection = try SQLiteConnection(path: url.path, readOnly: true, create: false, busyTimeout: 200)
        self.connection = connection
        lastDataVersion = try? connection.dataVersion()
        if !forcePolling {
            let folder = url.deletingLastPathComponent().path
            let name = url.lastPathComponent
            monitor = FolderWriteMonitor(folder: folder, names: [name, name + "-wal", name + "-journal"], queue: queue)
            if monitor == nil {
                Self.logger.warning("inotify is unavailable for \(folder); remote changes of \(name) are polled every \(Timing.pollingInterval).")
            }
        }
        detection = monitor == nil ? .polling : .fileEvents
    }

    deinit {
        // Released without `stop()` (the coordinator went away): sources must be cancelled
        // to be freed; the monitor's cancel handler closes its descriptor on the queue.
        if !stopped {
            timer?.cancel()
            monitor?.cancel()
        }
    }

    /// Starts watching, unless already stopped (the store was removed by another thread
    /// between being added and its watcher starting).
    func start() {
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        queue.sync {
            guard !stopped else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            self.timer = timer
            timer.setEventHandler { [weak self] in self?.check() }
            if detection == .polling {
                timer.schedule(deadline: .now() + Timing.pollingInterval, repeating: Timing.pollingInterval, leeway: .milliseconds(10))
            } else {
                timer.schedule(deadline: nextCheck ?? .distantFuture, repeating: .never, leeway: .milliseconds(2))
            }
            timer.activate()
            monitor?.start { [weak self] in self?.writeSeen() }
        }
    }

    /// Stops watching and closes the watcher's descriptors and connection. Once it
    /// returns (called off the queue), nothing more is posted.
    func stop() {
        let onQueue = DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self)
        let stopping = { [self] in
            stopped = true
            timer?.cancel()
            monitor?.cancel()
            connection?.close()
            connection = nil
        }
        if onQueue { stopping() } else { queue.sync(execute: stopping) }
        if !onQueue { monitor?.waitUntilClosed(timeout: .seconds(1)) }
    }

    /// Called by the coordinator, under its lock, after it wrote to the store: the only
    /// way to learn of an in-memory store's changes, and a head start for a SQLite store's.
    func storeWasWritten() {
        queue.async { [weak self] in
            guard let self else { return }
            if detection == .ownWrites { ownWritePending = true }
            writeSeen()
        }
    }

    // MARK: - Checking (on the queue)

    /// A write was seen: a check is due within `Timing.debounce`.
    private func writeSeen() {
        guard !stopped, detection != .polling else { return }
        lastWrite = .now()
        writesSinceCheck = true
        schedule(at: lastWrite + Timing.debounce)
    }

    private func schedule(at deadline: DispatchTime) {
        if let nextCheck, nextCheck <= deadline { return }
        nextCheck = deadline
        timer?.schedule(deadline: deadline, repeating: .never, leeway: .milliseconds(2))
    }

    private func check() {
        guard !stopped else { return }
        nextCheck = nil
        if committedSinceLastCheck() { post() }
        guard detection != .polling else { return }
        if writesSinceCheck {
            writesSinceCheck = false
            followUp = 0
        }
        if followUp < Timing.followUps.count {
            schedule(at: lastWrite + Timing.followUps[followUp])
            followUp += 1
        }
    }

    /// Whether a commit happened since the last check. A failed check (the file gone, a
    /// lock held past the busy timeout) counts as none; the next write or follow-up checks again.
    private func committedSinceLastCheck() -> Bool {
        guard let connection else {
            defer { ownWritePending = false }
            return ownWritePending
        }
        guard let version = try? connection.dataVersion() else { return false }
        defer { lastDataVersion = version }
        return version != lastDataVersion
    }

    /// Posts the notification, unless the coordinator is gone or no longer has the store.
    private func post() {
        guard let coordinator, let token = coordinator.remoteChangeToken(of: store) else { return }
        var userInfo: [AnyHashable: Any] = [StoreUUIDKey: store.identifier]
        if let url = store.url { userInfo[PersistentStoreURLKey] = url }
        if let token { userInfo[PersistentHistoryTokenKey] = token }
        NotificationCenter.default.post(name: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, userInfo: userInfo)
    }
}
