import CSQLite
import Foundation

/// A value reduced to a string that is equal for two values exactly when
/// `ValueComparison.isEqual` (or, with `[c]`/`[d]`, `StringMatching.equals`) says they are,
/// as SQLite stores them: numbers (and dates, stored as seconds) by value, text folded
/// under the options, blobs by bytes, object IDs by primary key.
///
/// `IN` with a constant collection binds the keys of its elements as one JSON parameter
/// and `ocd_in` looks up each row's key in them: one placeholder for any number of
/// elements, constant time per row.
enum SQLMembershipKey {
    /// The key of a constant as its column would store it; nil when it can equal nothing.
    static func of(_ value: CDValue, options: CDComparisonPredicate.Options) -> String? {
        switch value {
        case .null: return "n"
        case .bool(let flag): return "i:\(flag ? 1 : 0)"
        case .int64(let number): return "i:\(number)"
        case .double(let number): return number.isNaN ? nil : numberKey(number)
        case .decimal(let number):
            if number.isNaN { return nil }
            switch SQLValue.number(number) {
            case .integer(let whole): return "i:\(whole)"
            case .real(let approximation): return numberKey(approximation)
            default: return nil
            }
        case .string(let text): return "s:" + StringMatching.fold(text, options)
        case .date(let date): return numberKey(date.timeIntervalSinceReferenceDate)
        case .data(let data): return "b:" + hex(data)
        case .uuid(let uuid): return "b:" + hex(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .url(let url): return "s:" + url.absoluteString
        case .objectID(let id): return id.primaryKey.map { "i:\($0)" }
        case .array: return nil
        }
    }

    /// The key of a value SQLite computed for a row.
    static func of(_ value: OpaquePointer?, options: CDComparisonPredicate.Options) -> String? {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return "i:\(sqlite3_value_int64(value))"
        case SQLITE_FLOAT: return numberKey(sqlite3_value_double(value))
        case SQLITE_TEXT: return SQLiteFunctions.text(value).map { "s:" + StringMatching.fold($0, options) }
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { return "b:" }
            return "b:" + hex(Data(bytes: bytes, count: count))
        default: return "n"
        }
    }

    /// Whole numbers within Int64 share the integer form, so `3 == 3.0`.
    private static func numberKey(_ number: Double) -> String {
        if number.rounded(.towardZero) == number, number >= -9_223_372_036_854_775_808.0, number < 9_223_372_036_854_775_808.0 {
            return "i:\(Int64(number))"
        }
        return "d:\(number)"
    }

    private static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}

/// The keys of one constant collection, decoded once per statement execution. Keys are
/// compared by their UTF-8 bytes: Swift's `String` equality would also equate canonically
/// equivalent strings ("é" and "e\u{301}"), which `ValueComparison` keeps apart.
final class SQLMembershipKeys {
    private let keys: Set<Data>

    init(json: String) {
        keys = Set(((try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []).map { Data($0.utf8) })
    }

    func contains(_ key: String) -> Bool { keys.contains(Data(key.utf8)) }

    /// The JSON parameter for `keys`, each once.
    static func json(_ keys: [String]) -> String {
        var seen = Set<Data>()
        let unique = keys.filter { seen.insert(Data($0.utf8)).inserted }
        return (try? String(decoding: JSONEncoder().encode(unique), as: UTF8.self)) ?? "[]"
    }
}
