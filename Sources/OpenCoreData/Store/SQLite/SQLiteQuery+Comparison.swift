import Foundation

/// Direct comparisons, with `ValueComparison`'s and `StringMatching`'s answers:
/// - values of different kinds (a date and a number, text and a number) are unequal and
///   unordered, whatever SQLite's affinities would make of them;
/// - `==` / `!=` compile to `IS` / `IS NOT`, so nil equals only nil; ordering comparisons
///   never match nil;
/// - string operators and `[c]`/`[d]` call `ocd_string` (see `SQLiteFunctions`), false
///   for nil or non-string operands;
/// - `IN` a constant collection is one parameter looked up by `ocd_in`, so any number of
///   elements fits; `IN` / `CONTAINS` with a to-many side is a correlated `EXISTS`;
///   `IN` a string (and `CONTAINS` on a string) is a substring test; `BETWEEN {lo, hi}` is
///   `lo <= value <= hi`.
extension SQLiteQuery {
    mutating func compare(_ left: SQLOperand, _ test: Test, _ right: SQLOperand) throws -> String {
        switch test.op {
        case .in:
            return try membership(left, in: right, test)
        case .contains:
            if case .scalar(let text) = left, text.kind.mayBeString || text.kind == .null {
                return try stringTest(.contains, text, try scalar(right), test.options)
            }
            return try membership(right, in: left, test)
        case .between:
            let bounds: [SQLOperand]
            switch right {
            case .list(let elements): bounds = elements
            case .constant(.array(let values)): bounds = values.map { .constant($0) }
            default: throw CoreDataError(.invalidPredicate, "\(test.format): BETWEEN needs {lower, upper} on the right.")
            }
            guard bounds.count == 2 else { throw CoreDataError(.invalidPredicate, "\(test.format): BETWEEN needs exactly two bounds.") }
            let value = try scalar(left)
            let low = try ordered(try scalar(bounds[0]), "<=", value)
            let high = try ordered(value, "<=", try scalar(bounds[1]))
            return "(\(low) AND \(high))"
        default:
            return try compare(try directScalar(left, test), test, try directScalar(right, test))
        }
    }

    private mutating func directScalar(_ operand: SQLOperand, _ test: Test) throws -> SQLScalar {
        switch operand {
        case .collection:
            throw CoreDataError.toManyKeyNotAllowed(nil, in: .predicate(test.format))
        case .list, .constant(.array):
            throw CoreDataError(.invalidPredicate, "\(test.format): a collection cannot be compared with \(PredicateFormatPrinter.symbol(for: test.op)).")
        default:
            return try scalar(operand)
        }
    }

    /// Two single values.
    mutating func compare(_ left: SQLScalar, _ test: Test, _ right: SQLScalar) throws -> String {
        switch test.op {
        case .equalTo, .notEqualTo:
            let negated = test.op == .notEqualTo
            if !test.options.isEmpty && left.kind.mayBeString && right.kind.mayBeString {
                // Folded when both are strings; nil still equals only nil.
                let equal = "(\(try stringTest(.equals, left, right, test.options)) OR (\(left.sql) IS NULL AND \(right.sql) IS NULL))"
                return negated ? "NOT \(equal)" : equal
            }
            guard left.kind.isComparable(with: right.kind) || left.kind == .null || right.kind == .null else {
                let bothNil = "(\(left.sql) IS NULL AND \(right.sql) IS NULL)"
                return negated ? "NOT \(bothNil)" : bothNil
            }
            return "(\(left.sql) \(negated ? "IS NOT" : "IS") \(right.sql))"
        case .lessThan: return try ordered(folded(left, test), "<", folded(right, test))
        case .lessThanOrEqualTo: return try ordered(folded(left, test), "<=", folded(right, test))
        case .greaterThan: return try ordered(folded(left, test), ">", folded(right, test))
        case .greaterThanOrEqualTo: return try ordered(folded(left, test), ">=", folded(right, test))
        case .beginsWith: return try stringTest(.beginsWith, left, right, test.options)
        case .endsWith: return try stringTest(.endsWith, left, right, test.options)
        case .like: return try stringTest(.like, left, right, test.options)
        case .matches: return try stringTest(.matches, left, right, test.options)
        case .contains: return try stringTest(.contains, left, right, test.options)
        case .in: return try stringTest(.contains, right, left, test.options)
        case .between:
            throw CoreDataError(.invalidPredicate, "\(test.format): BETWEEN needs {lower, upper} on the right.")
        }
    }

    /// A string folded under `[c]`/`[d]` for an ordering comparison (`ocd_fold` leaves
    /// other values alone).
    private func folded(_ value: SQLScalar, _ test: Test) -> SQLScalar {
        guard !test.options.isEmpty, value.kind.mayBeString else { return value }
        return SQLScalar(sql: "\(SQLiteFunctions.foldFunction)(\(test.options.rawValue), \(value.sql))", kind: value.kind, isNullable: value.isNullable)
    }

    /// `left op right`, false when either is nil or they do not order.
    private func ordered(_ left: SQLScalar, _ op: String, _ right: SQLScalar) throws -> String {
        guard left.kind.isComparable(with: right.kind), left.kind != .null, right.kind != .null else {
            // False, but with both sides still computed, as in memory: an error one raises
            // (an @sum that overflows) does not depend on what it is compared with.
            return "(CASE WHEN \(left.sql) IS NULL OR \(right.sql) IS NULL THEN 0 ELSE 0 END)"
        }
        var parts = [String]()
        if left.isNullable { parts.append("\(left.sql) IS NOT NULL") }
        if right.isNullable { parts.append("\(right.sql) IS NOT NULL") }
        parts.append("\(left.sql) \(op) \(right.sql)")
        return "(" + parts.joined(separator: " AND ") + ")"
    }

    /// A string operator through `ocd_string`; false unless both sides may be strings.
    private func stringTest(_ op: SQLiteFunctions.StringOperator, _ text: SQLScalar, _ pattern: SQLScalar, _ options: CDComparisonPredicate.Options) throws -> String {
        guard text.kind.mayBeString, pattern.kind.mayBeString else { return "0" }
        return "\(SQLiteFunctions.stringFunction)(\(op.rawValue), \(options.rawValue), \(text.sql), \(pattern.sql))"
    }

    // MARK: - Membership

    /// `value IN collection` (also `collection CONTAINS value`).
    private mutating func membership(_ value: SQLOperand, in collection: SQLOperand, _ test: Test) throws -> String {
        let equality = Test(op: .equalTo, options: test.options, format: test.format)
        switch collection {
        case .collection(var rows):
            let element = SQLOperand.scalar(rows.element)
            let condition = try inScope(&rows) { try $0.compare(element, equality, value) }
            return "EXISTS (SELECT 1 \(rows.body([condition])))"
        case .list(let elements):
            let parts = try elements.map { try compare(value, equality, $0) }
            return parts.isEmpty ? "0" : balanced(parts, "OR")
        case .constant(.array(let elements)):
            if case .constant(let constant) = value {
                return elements.contains { ValueComparison.isEqual(constant, $0) } ? "1" : "0"
            }
            let left = try directScalar(value, test)
            // [c] and [d] fold strings only (a URL stays case-sensitive, as in memory).
            let options = left.kind.mayBeString ? test.options : []
            let keys = elements.filter { element in
                let kind = kind(ofConstant: element)
                return left.kind.isComparable(with: kind) || kind == .null
            }.compactMap { SQLMembershipKey.of($0, options: options) }
            if keys.isEmpty { return "0" }
            let parameter = bind(.text(SQLMembershipKeys.json(keys)))
            return "\(SQLiteFunctions.membershipFunction)(\(parameter), \(options.rawValue), \(left.sql))"
        case .scalar(let text):
            if case .collection = value { throw CoreDataError.toManyKeyNotAllowed(nil, in: .predicate(test.format)) }
            guard text.kind.mayBeString || text.kind == .null else {
                throw CoreDataError(.invalidPredicate, "\(test.format): \(PredicateFormatPrinter.symbol(for: test.op)) needs a collection or a string, not a \(text.kind) value.")
            }
            return try stringTest(.contains, text, try scalar(value), test.options)
        case .constant(let constant):
            if case .collection = value { throw CoreDataError.toManyKeyNotAllowed(nil, in: .predicate(test.format)) }
            if case .null = constant { return "0" }
            guard case .string = constant else {
                throw CoreDataError(.invalidPredicate, "\(test.format): \(PredicateFormatPrinter.symbol(for: test.op)) needs a collection or a string, not \(constant).")
            }
            return try stringTest(.contains, try scalar(constant), try scalar(value), test.options)
        }
    }
}
