import Foundation

/// `userInfo` key of `storeRemoteChangeNotification`: the changed store's `URL`
/// (`NSPersistentStoreURLKey`). Absent for an in-memory store, which has none.
public let PersistentStoreURLKey = "storeURL"
/// `userInfo` key of `storeRemoteChangeNotification`: the store's newest
/// `PersistentHistoryToken` (`NSPersistentHistoryTokenKey`). Absent unless the store
/// tracks history (`PersistentStoreOption.persistentHistoryTracking`) and has some.
public let PersistentHistoryTokenKey = "historyToken"
/// `userInfo` key of `storeRemoteChangeNotification`: the changed store's identifier,
/// `PersistentStore.identifier` (`NSStoreUUIDKey`).
public let StoreUUIDKey = "NSStoreUUID"

extension PersistentStoreCoordinator {
    /// Posted after a change was committed to a store added with
    /// `PersistentStoreOption.remoteChangeNotificationPost` set to true — by this
    /// coordinator, another one, another process, a save or a batch request
    /// (`NSPersistentStoreRemoteChange`).
    ///
    /// Object: the coordinator. `userInfo`: `PersistentStoreURLKey`, `StoreUUIDKey` and,
    /// when the store tracks history, `PersistentHistoryTokenKey`. Posted on a private
    /// serial queue of the coordinator's, within 1 s of the commit (about 10 ms on Linux,
    /// where inotify wakes the check); a burst of commits may be posted once. Filter your
    /// own transactions by `transactionAuthor` when you fetch the history. See
    /// docs/remote-change-notifications.md.
    public static let storeRemoteChangeNotification = Notification.Name("NSPersistentStoreRemoteChangeNotification")

    /// How `options` ask for remote change notifications to be detected: nil for none,
    /// `.polling` with `PersistentStoreOption.remoteChangePolling`, else `.fileEvents`.
    ///
    /// - Throws: `.storeOpenFailed` naming the key when a value is not a `Bool`.
    static func remoteChangeRequest(_ options: [String: any Sendable]?) throws -> RemoteChangeWatcher.Detection? {
        func flag(_ key: String) throws -> Bool { try SQLiteStoreOptions.bool(options ?? [:], key) ?? false }
        let polls = try flag(PersistentStoreOption.remoteChangePolling)
        guard try flag(PersistentStoreOption.remoteChangeNotificationPost) else { return nil }
        return polls ? .polling : .fileEvents
    }

    /// A watcher for a store just opened, when `request` asks for one; on failure the
    /// store is closed.
    func makeRemoteChangeWatcher(for store: PersistentStore, request: RemoteChangeWatcher.Detection?) throws -> RemoteChangeWatcher? {
        guard let request else { return nil }
        do {
            return try RemoteChangeWatcher(store: store, coordinator: self, forcePolling: request == .polling)
        } catch {
            store.close()
            throw SQLiteStore.openingError(error, path: store.url?.path ?? store.identifier)
        }
    }

    /// Stops the watcher of `store`, if any. Call outside the lock: it waits for a check
    /// in progress, which takes the lock.
    func stopRemoteChangeWatcher(for store: PersistentStore) {
        lock.withLock { remoteChangeWatchers.removeValue(forKey: ObjectIdentifier(store)) }?.stop()
    }

    /// Tells the watcher of `store`, if any, that this coordinator wrote to it. Call under the lock.
    func noteWrite(to store: PersistentStore) {
        guard !remoteChangeWatchers.isEmpty else { return }
        remoteChangeWatchers[ObjectIdentifier(store)]?.storeWasWritten()
    }

    /// The newest history token of `store` (itself nil when the store tracks no history),
    /// or nil when the store is no longer this coordinator's.
    func remoteChangeToken(of store: PersistentStore) -> PersistentHistoryToken?? {
        lock.withLock {
            guard stores.contains(where: { $0 === store }) else { return nil }
            return .some(try? store.newestHistoryToken())
        }
    }

    /// Whether the caller runs on the queue of one of this coordinator's watchers (tests).
    package var isOnRemoteChangeQueue: Bool {
        guard let current = DispatchQueue.getSpecific(key: RemoteChangeWatcher.queueKey) else { return false }
        return lock.withLock { remoteChangeWatchers.values.contains { ObjectIdentifier($0) == current } }
    }

    /// How each store with remote change notifications detects commits (tests).
    package var remoteChangeDetection: [String] {
        lock.withLock { remoteChangeWatchers.values.map(\.detection.rawValue) }
    }
}

