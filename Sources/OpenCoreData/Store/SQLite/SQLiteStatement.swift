import CSQLite
import Foundation

/// The `SQLITE_TRANSIENT` destructor: SQLite copies the bound bytes.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared SQLite statement: bind parameters, step, read columns by index.
final class SQLiteStatement {
    let pointer: OpaquePointer
    private unowned let connection: SQLiteConnection
    private var finalized = false
    /// Whether the current execution has been counted (cleared by `reset()`).
    private var isCounted = false

    init(_ pointer: OpaquePointer, connection: SQLiteConnection) {
        self.pointer = pointer
        self.connection = connection
    }

    deinit { finalize() }

    func finalize() {
        if !finalized { sqlite3_finalize(pointer) }
        finalized = true
    }

    /// The SQL the statement was prepared from.
    var sql: String { sqlite3_sql(pointer).map { String(cString: $0) } ?? "" }

    func reset() {
        isCounted = false
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    // MARK: - Binding (1-based indexes, as SQLite's)

    func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(pointer, index)
        case .integer(let number): sqlite3_bind_int64(pointer, index, number)
        case .real(let number): sqlite3_bind_double(pointer, index, number)
        case .text(let text):
            var text = text
            text.withUTF8 { bytes in
                _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress {
                        sqlite3_bind_text(pointer, index, base, Int32(chars.count), transient)
                    } else {
                        sqlite3_bind_text(pointer, index, "", 0, transient)
                    }
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(pointer, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
            }
        }
    }

    func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    func bind(_ number: Int64, at index: Int32) { sqlite3_bind_int64(pointer, index, number) }

    // MARK: - Stepping

    /// Advances to the next row; `false` when done.
    func step() throws -> Bool {
        if !isCounted {
            isCounted = true
            connection.executedStatementCount &+= 1
            if let observer = connection.statementObserver { observer(sql) }
        }
        let code = sqlite3_step(pointer)
        if code == SQLITE_ROW {
            connection.steppedRowCount &+= 1
            return true
        }
        if code == SQLITE_DONE { return false }
        let error = connection.error(code, connection.lastErrorMessage)
        sqlite3_reset(pointer)
        throw error
    }

    /// Runs a statement that returns no rows.
    func run() throws {
        while try step() {}
    }

    // MARK: - Reading columns (0-based indexes)

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func data(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(pointer, column))
        guard count > 0, let bytes = sqlite3_column_blob(pointer, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(pointer, column) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_TEXT: return .text(text(column))
        case SQLITE_BLOB: return .blob(data(column))
        default: return .null
        }
    }
}
