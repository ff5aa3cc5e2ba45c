import CSQLite
import Foundation

/// Swift values in and out of registered SQL functions, as the store keeps them: integers
/// as INTEGER, other numbers and dates (seconds since 2001) as REAL, strings as TEXT,
/// data as BLOB.
enum SQLiteResult {
    /// The `sqlite3_value` as the evaluator sees a stored value: Int64, Double, String, Data or nil.
    static func value(_ value: OpaquePointer?) -> Any? {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return sqlite3_value_int64(value)
        case SQLITE_FLOAT: return sqlite3_value_double(value)
        case SQLITE_TEXT: return SQLiteFunctions.text(value)
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { return Data() }
            return Data(bytes: bytes, count: count)
        default: return nil
        }
    }

    /// Sets a function's result to `value`.
    static func set(_ context: OpaquePointer?, to value: Any?) {
        switch CDValue(converting: EvaluatedCollection.plain(value)) ?? .null {
        case .null, .array, .objectID: sqlite3_result_null(context)
        case .bool(let flag): sqlite3_result_int64(context, flag ? 1 : 0)
        case .int64(let number): sqlite3_result_int64(context, number)
        case .double(let number): sqlite3_result_double(context, number)
        case .decimal(let number):
            if case .integer(let whole) = SQLValue.number(number) { sqlite3_result_int64(context, whole) } else { sqlite3_result_double(context, NSDecimalNumber(decimal: number).doubleValue) }
        case .string(let text):
            var text = text
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress {
                        sqlite3_result_text(context, base, Int32(chars.count), transientDestructor)
                    } else {
                        sqlite3_result_text(context, "", 0, transientDestructor)
                    }
                }
            }
        case .date(let date): sqlite3_result_double(context, date.timeIntervalSinceReferenceDate)
        case .data(let data):
            data.withUnsafeBytes { bytes in
                sqlite3_result_blob(context, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transientDestructor)
            }
        case .uuid(let uuid):
            withUnsafeBytes(of: uuid.uuid) { bytes in sqlite3_result_blob(context, bytes.baseAddress, 16, transientDestructor) }
        case .url(let url): set(context, to: url.absoluteString)
        }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bytes.
    private static let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
