import CSQLite
import Foundation

/// One connection to a SQLite database file, with a bounded cache of prepared statements.
///
/// Not thread-safe on purpose: it is opened with `SQLITE_OPEN_NOMUTEX` and the owning
/// store serialises every use under its own lock, which avoids SQLite's per-call mutex
/// (see <https://sqlite.org/threadsafe.html>).
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    let path: String
    /// Prepared statements by SQL, with when each was last used (`useClock`).
    private var statements: [String: (statement: SQLiteStatement, lastUse: UInt64)] = [:]
    private var useClock: UInt64 = 0
    /// How many statements `cachedStatement(_:)` keeps: SQL built from requests (predicates,
    /// sorts, dictionary columns) can take endless forms, and each prepared statement holds
    /// memory in SQLite until it is finalised.
    static let statementCacheCapacity = 256
    /// Typed errors raised inside the registered SQL functions, thrown by the statement.
    let functionErrors = SQLiteFunctionErrors()
    /// How many statements this connection has executed: one per execution of a
    /// prepared statement (however many rows it steps through) and one per `execute(_:)`.
    /// Tests use it to prove that an operation needed no SQL (prefetching, counting).
    var executedStatementCount = 0
    /// How many rows this connection's statements have stepped to (`sqlite3_step`
    /// returning `SQLITE_ROW`). Tests use it to prove how much a fetch read.
    var steppedRowCount = 0
    /// Called with the SQL of each statement as it starts executing, while set: tests
    /// capture what an operation ran (`PersistentStoreCoordinator.observeSQL(_:)`). Unset,
    /// it costs one branch per execution.
    var statementObserver: ((String) -> Void)?

    /// How long a statement waits for another connection's lock, in milliseconds.
    let busyTimeout: Int32

    /// Opens (creating if allowed) the database at `path`, with the store's SQL functions
    /// and collations registered (`SQLiteFunctions`).
    ///
    /// The busy timeout is set first, before anything reads the file, so that opening a
    /// store another process is creating or writing waits instead of failing at once.
    init(path: String, readOnly: Bool = false, create: Bool = true, busyTimeout: Int32 = 5_000) throws {
        self.path = path
        self.busyTimeout = busyTimeout
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw CoreDataError(.storeOpenFailed, "Could not open the SQLite file at \(path): \(message).", sqliteResultCode: code)
        }
        handle = db
        sqlite3_busy_timeout(db, busyTimeout)
        sqlite3_extended_result_codes(db, 1)
        do {
            try SQLiteFunctions.register(on: self)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Finalises every cached statement and closes the connection.
    func close() {
        for cached in statements.values { cached.statement.finalize() }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    // MARK: - Executing

    /// Runs one or more statements that take no parameters (schema, pragmas, transactions).
    func execute(_ sql: String) throws {
        executedStatementCount &+= 1
        if let statementObserver { statementObserver(sql) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw error(code, "\(message) (while running: \(sql.prefix(200)))")
        }
    }

    /// A cached prepared statement for `sql`, reset and with its bindings cleared.
    ///
    /// The cache keeps the `statementCacheCapacity` most recently used statements. An
    /// evicted statement is only dropped from the cache, never finalised there: one still
    /// in use (stepping through a fetch that prepares another statement) stays valid until
    /// its user releases it, and `SQLiteStatement`'s deinit finalises it then.
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        useClock &+= 1
        if let index = statements.index(forKey: sql) {
            statements.values[index].lastUse = useClock
            let statement = statements.values[index].statement
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        if statements.count >= Self.statementCacheCapacity, let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            statements.removeValue(forKey: oldest.key)
        }
        statements[sql] = (statement, useClock)
        return statement
    }

    /// How many prepared statements the cache holds (at most `statementCacheCapacity`).
    var cachedStatementCount: Int { statements.count }

    /// A new prepared statement for `sql`, not cached (finalised when released).
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw error(code, "\(lastErrorMessage) (while preparing: \(sql.prefix(300)))")
        }
        return SQLiteStatement(pointer, connection: self)
    }

    /// The single value of the first row of `sql`, or nil.
    func scalar(_ sql: String) throws -> SQLValue? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// Whether SQLite opened the file read-only: on request, or because the file or its
    /// mount cannot be written.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid (`Z_PK`) of the row the last INSERT added.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Why the store was opened read-only when it was not asked to be (a store with
    /// persistent history opened without tracking): added to `.storeReadOnly` errors.
    var readOnlyReason: String?

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32, _ message: String) -> CoreDataError {
        if let pending = functionErrors.pending {
            functionErrors.pending = nil
            return pending
        }
        let kind: CoreDataError.Code
        switch code & 0xff {
        case SQLITE_NOTADB: kind = .notAStore
        case SQLITE_CORRUPT: kind = .storeCorrupt
        case SQLITE_CONSTRAINT: kind = .constraintViolation
        case SQLITE_READONLY:
            return CoreDataError(.storeReadOnly, "SQLite error \(code): \(message)" + (readOnlyReason.map { ". \($0)" } ?? ""), sqliteResultCode: code)
        case SQLITE_BUSY, SQLITE_LOCKED:
            let seconds = Double(busyTimeout) / 1000
            return CoreDataError(.storeTimeout,
                "The store at \(path) stayed locked by another connection past the timeout of \(seconds) s (SQLite error \(code): \(message)).",
                sqliteResultCode: code)
        default: kind = .sqliteError
        }
        return CoreDataError(kind, "SQLite error \(code): \(message)", sqliteResultCode: code)
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, committing on success and rolling
    /// back on any thrown error.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
