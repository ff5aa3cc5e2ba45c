import CSQLite
import Foundation

/// Checks a store file with its own plain SQLite connection, after a crash or a fault:
/// `PRAGMA integrity_check` and integer queries.
package struct StoreOracle {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    package let path: String

    package init(path: String) { self.path = path }

    /// The rows of `sql`, every column read as an integer.
    package func integers(_ sql: String) throws -> [[Int64]] {
        try withConnection { db in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
            }
            defer { sqlite3_finalize(statement) }
            var rows: [[Int64]] = []
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))") }
                rows.append((0..<sqlite3_column_count(statement)).map { sqlite3_column_int64(statement, $0) })
            }
            return rows
        }
    }

    /// One integer: the first column of the first row (0 when there is none).
    package func integer(_ sql: String) throws -> Int64 { try integers(sql).first?.first ?? 0 }

    /// The first column of every row of `sql`, as text.
    package func strings(_ sql: String) throws -> [String] {
        try withConnection { db in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
            }
            defer { sqlite3_finalize(statement) }
            var rows: [String] = []
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))") }
                rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
            }
            return rows
        }
    }

    /// Every row of every table, one line each (`table: value|value…`), to compare a
    /// store's whole content before and after.
    package func contents() throws -> [String] {
        var lines: [String] = []
        for table in try strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            let columns = try strings("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid")
            let row = columns.map { "quote(\($0))" }.joined(separator: " || '|' || ")
            lines += try strings("SELECT \(row) FROM \(table) ORDER BY rowid").map { "\(table): \($0)" }
        }
        return lines
    }

    /// `PRAGMA integrity_check`'s lines: `["ok"]` for a sound file.
    package func integrityCheck() throws -> [String] {
        try withConnection { db in
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
                return [String(cString: sqlite3_errmsg(db))]
            }
            defer { sqlite3_finalize(statement) }
            var lines: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                lines.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
            }
            return lines.isEmpty ? [String(cString: sqlite3_errmsg(db))] : lines
        }
    }

    private func withConnection<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil)
        defer { sqlite3_close_v2(db) }
        guard code == SQLITE_OK, let db else { throw Failure(description: "cannot open \(path): SQLite \(code)") }
        sqlite3_busy_timeout(db, 5_000)
        return try body(db)
    }
}
