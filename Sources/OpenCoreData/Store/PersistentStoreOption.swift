/// Keys of the `options` dictionary of `addPersistentStore(type:configuration:at:options:)`,
/// named after Core Data's (`NSSQLitePragmasOption` → `PersistentStoreOption.sqlitePragmas`).
public enum PersistentStoreOption {
    /// `[String: String]` of SQLite pragmas run at open, as Core Data's
    /// `NSSQLitePragmasOption`: e.g. `["journal_mode": "DELETE", "synchronous": "NORMAL"]`.
    /// Only known pragmas with plain values are accepted (journal_mode, synchronous,
    /// cache_size, page_size…); anything else throws `.storeOpenFailed` before the file
    /// is touched, so no SQL can be slipped in.
    public static let sqlitePragmas = "NSSQLitePragmasOption"
    /// `Bool`: open the store read-only (`NSReadOnlyPersistentStoreOption`); fetches work,
    /// saves throw `.storeReadOnly` and keep the context's changes. A missing store is not
    /// created. (A file that cannot be written opens this way on its own.)
    public static let readOnly = "NSReadOnlyPersistentStoreOption"
    /// `Double` seconds: how long a save or read waits for another connection's lock
    /// before failing with `.storeTimeout` (`NSPersistentStoreTimeoutOption`; default 5).
    public static let timeout = "NSPersistentStoreTimeoutOption"
    /// `Bool`: run `PRAGMA quick_check` when the store is opened and refuse a damaged file
    /// with `.storeCorrupt` (costs a read of the whole file; off by default).
    public static let verifiesOnOpen = "OCDSQLiteQuickCheckOnOpenOption"
    /// `Bool`: record every save and batch request in the store's persistent history
    /// (`NSPersistentHistoryTrackingKey`), read with `PersistentHistoryChangeRequest`.
    public static let persistentHistoryTracking = "NSPersistentHistoryTrackingKey"
    /// `Bool`: post `PersistentStoreCoordinator.storeRemoteChangeNotification` for every
    /// change to the store, by any coordinator or process
    /// (`NSPersistentStoreRemoteChangeNotificationPostOptionKey`).
    public static let remoteChangeNotificationPost = "NSPersistentStoreRemoteChangeNotificationPostOptionKey"
    /// `Bool`: with `remoteChangeNotificationPost`, detect commits by checking
    /// `PRAGMA data_version` every 100 ms instead of through inotify: for a store file on a
    /// network filesystem written from other hosts, whose writes inotify does not see.
    /// (Where inotify is missing, as on macOS, the store polls anyway.) Not Core Data's.
    public static let remoteChangePolling = "OCDRemoteChangePollingOption"
}

// Core Data's option key constants, minus `NS`, so that code setting options ports by
// renaming. Each is the `PersistentStoreOption` member of the same meaning.

/// `NSSQLitePragmasOption`: `PersistentStoreOption.sqlitePragmas`.
public let SQLitePragmasOption = PersistentStoreOption.sqlitePragmas
/// `NSReadOnlyPersistentStoreOption`: `PersistentStoreOption.readOnly`.
public let ReadOnlyPersistentStoreOption = PersistentStoreOption.readOnly
/// `NSPersistentStoreTimeoutOption`: `PersistentStoreOption.timeout`.
public let PersistentStoreTimeoutOption = PersistentStoreOption.timeout
/// `NSPersistentHistoryTrackingKey`: `PersistentStoreOption.persistentHistoryTracking`.
public let PersistentHistoryTrackingKey = PersistentStoreOption.persistentHistoryTracking
/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`:
/// `PersistentStoreOption.remoteChangeNotificationPost`.
public let PersistentStoreRemoteChangeNotificationPostOptionKey = PersistentStoreOption.remoteChangeNotificationPost
