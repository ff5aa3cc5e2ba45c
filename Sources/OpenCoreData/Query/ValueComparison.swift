import Foundation

/// The ordering and equality rules shared by predicate evaluation, sort descriptors and
/// (so results agree with in-memory evaluation) the SQL compiler.
///
/// - Numbers of every type compare by value: `Int16(3) == 3.0 == Decimal(3)`; `Bool` is 0 or 1;
///   integers and doubles compare exactly (no rounding of large integers).
/// - Strings compare by Unicode scalars, literally — the order of their UTF-8 bytes, as
///   SQLite's default collation has it. (Case and diacritic options come with `[cd]`.)
/// - Dates by time; data and UUIDs by bytes; URLs by their absolute string.
/// - `nil` equals only `nil`; in an ordering comparison it matches nothing.
/// - A `ManagedObject` stands for its `objectID`.
/// - Values of unrelated types are unequal and unordered.
package enum ValueComparison {
    // MARK: - Raw values

    /// Whether two values read from objects or constants are equal.
    package static func isEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (CDValue(converting: lhs), CDValue(converting: rhs)) {
        case let (left?, right?): return isEqual(left, right)
        case (nil, nil): return isIdentical(CDValue.flattenOptional(lhs), CDValue.flattenOptional(rhs))
        default: return false
        }
    }

    /// How two values order, or `nil` when they do not (a `nil`, a NaN, unrelated types).
    package static func order(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult? {
        guard let left = CDValue(converting: lhs), let right = CDValue(converting: rhs) else { return nil }
        return order(left, right)
    }

    /// Two values with no `CDValue` form: the same object, or equal `Hashable` values.
    private static func isIdentical(_ lhs: Any?, _ rhs: Any?) -> Bool {
        guard let lhs, let rhs else { return false }
        if type(of: lhs) is AnyClass, type(of: rhs) is AnyClass {
            return (lhs as AnyObject) === (rhs as AnyObject)
        }
        guard let left = lhs as? AnyHashable, let right = rhs as? AnyHashable else { return false }
        return left == right
    }

    // MARK: - Constants

    /// Whether two values are equal under the rules above.
    package static func isEqual(_ lhs: CDValue, _ rhs: CDValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.array(left), .array(right)):
            return left.count == right.count && zip(left, right).allSatisfy { isEqual($0, $1) }
        case let (.url(left), .url(right)): return left == right
        case let (.objectID(left), .objectID(right)): return left == right
        default: return order(lhs, rhs) == .orderedSame
        }
    }

    /// How two values order, or `nil` when they do not.
    package static func order(_ lhs: CDValue, _ rhs: CDValue) -> ComparisonResult? {
        if let left = NumericValue(lhs), let right = NumericValue(rhs) { return left.compare(to: right) }
        switch (lhs, rhs) {
        case let (.string(left), .string(right)): return compareBytes(left.utf8, right.utf8)
        case let (.date(left), .date(right)): return compare(left, right)
        case let (.data(left), .data(right)): return compareBytes(left, right)
        case let (.uuid(left), .uuid(right)):
            return withUnsafeBytes(of: left.uuid) { a in withUnsafeBytes(of: right.uuid) { b in compareBytes(a, b) } }
        case let (.url(left), .url(right)): return compareBytes(left.absoluteString.utf8, right.absoluteString.utf8)
        case let (.objectID(left), .objectID(right)):
            guard left.entitySerial == right.entitySerial else { return nil }
            // Permanent IDs first, each kind by key.
            guard left.isTemporaryID == right.isTemporaryID else { return left.isTemporaryID ? .orderedDescending : .orderedAscending }
            return compare(left.key, right.key)
        default: return nil
        }
    }

    // MARK: - Helpers

    package static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (rhs < lhs ? .orderedDescending : .orderedSame)
    }

    /// Lexicographic order of two byte sequences (`memcmp`, shorter first on a tie).
    private static func compareBytes<L: Sequence<UInt8>, R: Sequence<UInt8>>(_ lhs: L, _ rhs: R) -> ComparisonResult {
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (a?, b?) where a != b: return a < b ? .orderedAscending : .orderedDescending
            default: continue
            }
        }
    }
}

// MARK: - Total order for sorting

extension ValueComparison {
    /// A total order over all values, for sorting: `nil` first, then values grouped by type
    /// (numbers, strings, dates, data, UUIDs, URLs, object IDs, arrays), each group in
    /// `order(_:_:)`'s order. NaN sorts before other numbers; object IDs of different
    /// entities by entity name; arrays element by element.
    package static func sortOrder(_ lhs: CDValue, _ rhs: CDValue) -> ComparisonResult {
        let (leftRank, rightRank) = (rank(lhs), rank(rhs))
        if leftRank != rightRank { return compare(leftRank, rightRank) }
        if let result = order(lhs, rhs) { return result }
        switch (lhs, rhs) {
        case let (.objectID(left), .objectID(right)):
            return compare(left.entity.name, right.entity.name)
        case let (.array(left), .array(right)):
            for (a, b) in zip(left, right) {
                let result = sortOrder(a, b)
                if result != .orderedSame { return result }
            }
            return compare(left.count, right.count)
        default:
            // Numbers with a NaN: NaN first.
            if let left = NumericValue(lhs), let right = NumericValue(rhs) {
                return compare(left.isNaN ? 0 : 1, right.isNaN ? 0 : 1)
            }
            return .orderedSame
        }
    }

    /// The group a value sorts in.
    private static func rank(_ value: CDValue) -> Int {
        switch value {
        case .null: return 0
        case .bool, .int64, .double, .decimal: return 1
        case .string: return 2
        case .date: return 3
        case .data: return 4
        case .uuid: return 5
        case .url: return 6
        case .objectID: return 7
        case .array: return 8
        }
    }
}
