import CSQLiteBench
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
private var transient: sqlite3_destructor_type { unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self) }

/// One prepared statement, reused with `reset()`; parameters are 1-based, columns 0-based.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        try connection.check(sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil))
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement: \(sql)") }
        handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Advances to the next row; false when done.
    @inline(__always)
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        try connection.check(code)
        return false
    }

    /// Runs a statement that returns no rows, then resets it for reuse.
    @inline(__always)
    func run() throws {
        while try step() {}
        reset()
    }

    @inline(__always)
    func reset() {
        sqlite3_reset(handle)
    }

    // MARK: Binding

    @inline(__always) func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    @inline(__always) func bind(_ value: Double, at index: Int32) { sqlite3_bind_double(handle, index, value) }
    @inline(__always) func bind(_ value: Bool, at index: Int32) { sqlite3_bind_int64(handle, index, value ? 1 : 0) }
    @inline(__always) func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    @inline(__always)
    func bind(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), transient)
            }
        }
    }

    @inline(__always)
    func bind(_ value: Data, at index: Int32) {
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), transient)
        }
    }

    // MARK: Reading columns

    @inline(__always) func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inline(__always) func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    @inline(__always) func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }
    @inline(__always) func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    @inline(__always)
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    @inline(__always)
    func data(_ column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The raw bytes of a text or blob column, valid until the next step.
    @inline(__always)
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, column)
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column)))
    }
}
