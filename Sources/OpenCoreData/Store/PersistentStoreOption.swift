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
}
