import Foundation

/// A number from a `CDValue` (booleans as 0 or 1), compared by value across representations.
package enum NumericValue {
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)

    /// The number `value` holds, or `nil` when it is not a number.
    package init?(_ value: CDValue) {
        switch value {
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .double(number)
        case .decimal(let number): self = .decimal(number)
        default: return nil
        }
    }

    /// Whether the number is NaN (which orders with nothing).
    package var isNaN: Bool {
        switch self {
        case .integer: return false
        case .double(let number): return number.isNaN
        case .decimal(let number): return number.isNaN
        }
    }

    /// How two numbers order, exactly; `nil` when either is NaN.
    package func compare(to other: NumericValue) -> ComparisonResult? {
        if isNaN || other.isNaN { return nil }
        switch (self, other) {
        case let (.integer(a), .integer(b)): return ValueComparison.compare(a, b)
        case let (.double(a), .double(b)): return ValueComparison.compare(a, b)
        case let (.decimal(a), .decimal(b)): return ValueComparison.compare(a, b)
        case let (.integer(a), .double(b)): return Self.compare(a, b)
        case let (.double(a), .integer(b)): return Self.compare(b, a).reversed
        case let (.integer(a), .decimal(b)): return ValueComparison.compare(Decimal(a), b)
        case let (.decimal(a), .integer(b)): return ValueComparison.compare(a, Decimal(b))
        case let (.decimal(a), .double(b)): return ValueComparison.compare(Self.double(a), b)
        case let (.double(a), .decimal(b)): return ValueComparison.compare(a, Self.double(b))
        }
    }

    /// An integer and a double, compared without rounding the integer to a double.
    private static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult {
        // 2^63 is exactly representable; every double at or beyond it is out of Int64's range.
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = double.rounded(.down)
        let truncated = Int64(whole)
        if integer != truncated { return ValueComparison.compare(integer, truncated) }
        return whole < double ? .orderedAscending : .orderedSame
    }

    private static func double(_ decimal: Decimal) -> Double {
        NSDecimalNumber(decimal: decimal).doubleValue
    }
}

extension ComparisonResult {
    /// The same comparison seen from the other side.
    package var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}
