import CSQLiteBench

/// A failed SQLite call, with SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// A minimal owner of one `sqlite3*` handle, for the raw engine and for checks.
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens (creating if needed) the database file at `path`, read-write, no mutex.
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: message)
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows needed by the caller.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// The first column of the first row of `sql`, as text (nil when there is no row).
    func scalarText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    func scalarInt(_ sql: String, _ arguments: String...) throws -> Int64 {
        let statement = try prepare(sql)
        for (index, argument) in arguments.enumerated() { statement.bind(argument, at: Int32(index + 1)) }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    func check(_ code: Int32) throws {
        guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// The library version in use, e.g. "3.40.1".
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

extension SQLiteConnection {
    /// SQLite's plan for `sql` on the pinned schema (no statistics), one step per line.
    static func queryPlan(_ sql: String) throws -> [String] {
        let db = try SQLiteConnection(path: ":memory:")
        for ddl in Schema.printedDDL { try db.execute(ddl) }
        let explain = try db.prepare("EXPLAIN QUERY PLAN " + sql)
        var steps: [String] = []
        while try explain.step() { steps.append(explain.text(3)) }
        return steps
    }
}
