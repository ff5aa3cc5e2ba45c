import CSQLite
import Foundation

/// Reads a store file with plain SQLite, as a user's `sqlite3` would.
package struct SQLiteInspector {
    package let path: String
    package init(_ url: URL) { path = url.path }

    /// The first column of every row of `sql`, as text.
    package func strings(_ sql: String) throws -> [String] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw InspectorError(message: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw InspectorError(message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
        }
        return rows
    }

    /// Runs statements that change the file (to damage or prepare it).
    package func execute(_ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw InspectorError(message: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw InspectorError(message: String(cString: sqlite3_errmsg(db)))
        }
    }

    package struct InspectorError: Error { package let message: String }
}
