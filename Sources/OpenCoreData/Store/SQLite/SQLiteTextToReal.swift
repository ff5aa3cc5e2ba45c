import CSQLite
import Foundation

/// SQLite's own conversion of number text to a REAL — the one NUMERIC affinity applies when
/// the SQLite store saves a decimal — for the in-memory store to keep decimals exactly as
/// that store does. SQLite's conversion is not always correctly rounded (3.40 truncates
/// past 19 digits), so Swift's `Double(_:)` differs from it in the last bit on some inputs.
enum SQLiteTextToReal {
    /// A private in-memory database and its prepared `SELECT CAST(?1 AS REAL)`.
    private struct Converter {
        let database: OpaquePointer
        let statement: OpaquePointer
    }

    private static let converter = SanitizedMutex<Converter?>(makeConverter())

    /// `text` converted by SQLite; `nil` when SQLite could not be opened.
    static func real(_ text: String) -> Double? {
        converter.withLock { converter in
            guard let statement = converter?.statement else { return nil }
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            return text.withCString { bytes in
                // SQLITE_STATIC (nil): the bytes outlive the step.
                guard sqlite3_bind_text(statement, 1, bytes, -1, nil) == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW else { return nil }
                return sqlite3_column_double(statement, 0)
            }
        }
    }

    private static func makeConverter() -> Converter? {
        var database: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let database else {
            sqlite3_close(database)
            return nil
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT CAST(?1 AS REAL)", -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_close(database)
            return nil
        }
        return Converter(database: database, statement: statement)
    }
}
