import Foundation

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
