import CSQLite
import Foundation

/// The SQL functions and collations the store registers on each connection so that
/// queries give the in-memory evaluator's answers: they call the very same Swift code
/// (`StringMatching`, `StringOrdering`, `ValueComparison`).
///
/// Functions are registered `SQLITE_DIRECTONLY`, so no schema object (view, trigger,
/// index, CHECK) can ever use them and the file stays readable by a plain `sqlite3`
/// (see <https://sqlite.org/c3ref/create_function.html>). Collations are only named in
/// the SELECTs the store runs, never in DDL.
enum SQLiteFunctions {
    /// `ocd_string(operator, options, text, pattern)`: 1 when the string operator holds,
    /// 0 otherwise (also when either side is not text, as in memory).
    static let stringFunction = "ocd_string"
    /// `ocd_in(keys, options, value)`: 1 when `value`'s `SQLMembershipKey` is one of the
    /// JSON array `keys` (a constant list bound as one parameter), 0 otherwise.
    static let membershipFunction = "ocd_in"
    /// `ocd_fold(options, value)`: a string folded under `[c]`/`[d]` (other values as they are).
    static let foldFunction = "ocd_fold"
    /// `ocd_function(name, arguments…)`: NSExpression's function `name`, computed by the
    /// evaluator's `FunctionEvaluation`.
    static let function = "ocd_function"
    /// `ocd_sum(value)`, `ocd_avg(value)`: `@sum` and `@avg` by the evaluator's
    /// `AggregateFunctions` (an exact integer total, whatever the row order; its overflow
    /// is the evaluator's typed error).
    static let sumAggregate = "ocd_sum"
    static let averageAggregate = "ocd_avg"

    /// Codes of the string operators for `ocd_string`.
    enum StringOperator: Int64 {
        case equals = 0, beginsWith, endsWith, contains, like, matches
    }

    /// The collation name for a sort selector, or nil for `.compare` (SQLite's BINARY
    /// collation orders UTF-8 bytes, as `.compare` does).
    static func collation(for selector: CDSortDescriptor.Selector) -> String? {
        switch selector {
        case .compare: return nil
        case .caseInsensitiveCompare: return "ocd_case_insensitive"
        case .localizedCompare: return "ocd_localized"
        case .localizedCaseInsensitiveCompare: return "ocd_localized_case_insensitive"
        case .localizedStandardCompare: return "ocd_localized_standard"
        }
    }

    /// Registers every function and collation on `connection`.
    static func register(on connection: SQLiteConnection) throws {
        let context = Unmanaged.passUnretained(connection.functionErrors).toOpaque()
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY
        var code = sqlite3_create_function_v2(connection.handle, stringFunction, 4, flags, context, { context, _, arguments in
            SQLiteFunctions.string(context, arguments)
        }, nil, nil, nil)
        if code == SQLITE_OK {
            code = sqlite3_create_function_v2(connection.handle, membershipFunction, 3, flags, nil, { context, _, arguments in
                SQLiteFunctions.membership(context, arguments)
            }, nil, nil, nil)
        }
        if code == SQLITE_OK {
            code = sqlite3_create_function_v2(connection.handle, foldFunction, 2, flags, nil, { context, _, arguments in
                SQLiteFunctions.fold(context, arguments)
            }, nil, nil, nil)
        }
        if code == SQLITE_OK {
            code = sqlite3_create_function_v2(connection.handle, function, -1, flags, context, { context, count, arguments in
                SQLiteFunctions.call(context, Int(count), arguments)
            }, nil, nil, nil)
        }
        let finishers: [(String, @convention(c) (OpaquePointer?) -> Void)] = [
            (sumAggregate, { context in SQLiteFunctions.finish(context, isAverage: false) }),
            (averageAggregate, { context in SQLiteFunctions.finish(context, isAverage: true) }),
        ]
        for (name, finish) in finishers where code == SQLITE_OK {
            code = sqlite3_create_function_v2(connection.handle, name, 1, flags, context, nil, { context, _, arguments in
                SQLiteFunctions.collect(context, arguments)
            }, finish, nil)
        }
        for selector in CDSortDescriptor.Selector.allCases where code == SQLITE_OK {
            guard let name = collation(for: selector) else { continue }
            let box = Unmanaged.passRetained(SelectorBox(selector)).toOpaque()
            code = sqlite3_create_collation_v2(connection.handle, name, SQLITE_UTF8, box, { box, leftCount, left, rightCount, right in
                let selector = Unmanaged<SelectorBox>.fromOpaque(box!).takeUnretainedValue().selector
                let lhs = SQLiteFunctions.string(left, Int(leftCount))
                let rhs = SQLiteFunctions.string(right, Int(rightCount))
                switch StringOrdering.compare(lhs, rhs, selector) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            }, { box in
                Unmanaged<SelectorBox>.fromOpaque(box!).release()
            })
        }
        guard code == SQLITE_OK else { throw connection.error(code, "Could not register the store's SQL functions: \(connection.lastErrorMessage)") }
    }

    /// A sort selector, handed to SQLite as a collation's context.
    private final class SelectorBox {
        let selector: CDSortDescriptor.Selector
        init(_ selector: CDSortDescriptor.Selector) { self.selector = selector }
    }

    // MARK: - Implementations

    private static func string(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let arguments, let op = StringOperator(rawValue: sqlite3_value_int64(arguments[0])) else {
            sqlite3_result_int64(context, 0)
            return
        }
        let options = CDComparisonPredicate.Options(rawValue: UInt8(truncatingIfNeeded: sqlite3_value_int64(arguments[1])))
        if let answer = SQLiteASCIIMatching.match(op, arguments[2], arguments[3], foldsCase: options.contains(.caseInsensitive)) {
            sqlite3_result_int64(context, answer ? 1 : 0)
            return
        }
        guard let text = Self.text(arguments[2]), let pattern = Self.text(arguments[3]) else {
            // A MATCHES pattern is checked whatever the left side holds, as in memory.
            if op == .matches, let pattern = Self.text(arguments[3]) {
                do { _ = try StringMatching.matches("", pattern, options) } catch { return fail(context, error) }
            }
            sqlite3_result_int64(context, 0)
            return
        }
        let result: Bool
        switch op {
        case .equals: result = StringMatching.equals(text, pattern, options)
        case .beginsWith: result = StringMatching.beginsWith(text, pattern, options)
        case .endsWith: result = StringMatching.endsWith(text, pattern, options)
        case .contains: result = StringMatching.contains(text, pattern, options)
        case .like: result = StringMatching.like(text, pattern, options)
        case .matches:
            do {
                result = try StringMatching.matches(text, pattern, options)
            } catch {
                fail(context, error)
                return
            }
        }
        sqlite3_result_int64(context, result ? 1 : 0)
    }

    private static func membership(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let arguments else { return }
        let options = CDComparisonPredicate.Options(rawValue: UInt8(truncatingIfNeeded: sqlite3_value_int64(arguments[1])))
        let keys: SQLMembershipKeys
        if let cached = sqlite3_get_auxdata(context, 0) {
            keys = Unmanaged<SQLMembershipKeys>.fromOpaque(cached).takeUnretainedValue()
        } else {
            keys = SQLMembershipKeys(json: text(arguments[0]) ?? "[]")
            sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(keys).toOpaque()) { pointer in
                Unmanaged<SQLMembershipKeys>.fromOpaque(pointer!).release()
            }
        }
        let found = SQLMembershipKey.of(arguments[2], options: options).map(keys.contains) ?? false
        sqlite3_result_int64(context, found ? 1 : 0)
    }

    private static func fold(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let arguments else { return }
        guard let text = text(arguments[1]) else {
            sqlite3_result_value(context, arguments[1])
            return
        }
        let options = CDComparisonPredicate.Options(rawValue: UInt8(truncatingIfNeeded: sqlite3_value_int64(arguments[0])))
        SQLiteResult.set(context, to: StringMatching.fold(text, options))
    }

    private static func call(_ context: OpaquePointer?, _ count: Int, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let arguments, count >= 1, let name = text(arguments[0]) else { return }
        let values = (1..<count).map { SQLiteResult.value(arguments[$0]) }
        do {
            SQLiteResult.set(context, to: try FunctionEvaluation.call(name, values))
        } catch {
            fail(context, error)
        }
    }

    /// Collects one aggregated value in the aggregate's context.
    private static func collect(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        guard let arguments, let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)) else { return }
        let storage = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        if storage.pointee == nil { storage.pointee = Unmanaged.passRetained(AggregateValues()).toOpaque() }
        let values = Unmanaged<AggregateValues>.fromOpaque(storage.pointee!).takeUnretainedValue()
        if let value = SQLiteResult.value(arguments[0]) { values.values.append(value) }
    }

    private static func finish(_ context: OpaquePointer?, isAverage: Bool) {
        var values: [Any] = []
        if let slot = sqlite3_aggregate_context(context, 0) {
            let storage = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            if let box = storage.pointee {
                values = Unmanaged<AggregateValues>.fromOpaque(box).takeRetainedValue().values
                storage.pointee = nil
            }
        }
        do {
            SQLiteResult.set(context, to: isAverage ? try AggregateFunctions.average(values, in: "@avg") : try AggregateFunctions.sum(values, in: "@sum"))
        } catch {
            fail(context, error)
        }
    }

    /// The values one aggregate call has seen so far.
    private final class AggregateValues {
        var values: [Any] = []
    }

    /// Leaves `error` for the connection to throw, and fails the statement.
    private static func fail(_ context: OpaquePointer?, _ error: any Error) {
        let errors = Unmanaged<SQLiteFunctionErrors>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
        errors.pending = error as? CoreDataError ?? CoreDataError(.invalidPredicate, "\(error)")
        sqlite3_result_error(context, "\(errors.pending!.message)", -1)
    }

    // MARK: - Reading values

    /// The text of a TEXT value; nil for every other storage class.
    static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
        return string(sqlite3_value_text(value), Int(sqlite3_value_bytes(value)))
    }

    private static func string(_ bytes: UnsafeRawPointer?, _ count: Int) -> String {
        guard let bytes, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// Where a registered function leaves the typed error it could not return through SQLite
/// (a bad MATCHES pattern), for the connection to throw instead of a generic SQL error.
final class SQLiteFunctionErrors {
    var pending: CoreDataError?
}
