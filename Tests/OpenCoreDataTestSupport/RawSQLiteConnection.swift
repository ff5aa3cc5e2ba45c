import CSQLite
import Foundation

/// A plain SQLite connection kept open across calls, as another process's would be: to
/// hold a lock, or to leave a transaction half-written on disk.
package final class RawSQLiteConnection {
    private var db: OpaquePointer?

    package init(_ url: URL) throws {
        guard sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            sqlite3_close_v2(db)
            throw SQLiteInspector.InspectorError(message: "cannot open \(url.path)")
        }
    }

    deinit { close() }

    package func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteInspector.InspectorError(message: String(cString: sqlite3_errmsg(db)))
        }
    }

    package func close() {
        sqlite3_close_v2(db)
        db = nil
    }
}
