import Foundation

/// Arithmetic for the predicate language's functions (`add:to:`, `from:subtract:`,
/// `multiply:by:`, `divide:by:`, `modulus:by:`, `raise:toPower:`, `abs:`) and for `@sum`.
///
/// Two integers give an integer, unless the exact result does not fit in 64 bits: then a
/// double. A decimal with an integer or a decimal gives a decimal; anything with a double
/// gives a double. Division always gives a double. Nothing here traps: division or
/// modulus by zero is `nil`, overflow becomes a double.
extension NumericValue {
    // MARK: - Conversions

    /// The number as a Swift value (`Int64`, `Double` or `Decimal`).
    package var anyValue: Any {
        switch self {
        case .integer(let value): return value
        case .double(let value): return value
        case .decimal(let value): return value
        }
    }

    /// The number as a double (rounded for large integers and decimals).
    package var doubleValue: Double {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        case .decimal(let value): return NSDecimalNumber(decimal: value).doubleValue
        }
    }

    /// The number when it is an integer of any representation (`2.0` and `Decimal(2)` too).
    package var exactInteger: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return Int64(exactly: value)
        case .decimal(let value):
            guard let integer = Int64(exactly: NSDecimalNumber(decimal: value).doubleValue), Decimal(integer) == value else { return nil }
            return integer
        }
    }

    /// The number `value` holds (read from an object or a constant), or `nil`.
    package init?(any value: Any?) {
        guard let converted = CDValue(converting: value), let number = NumericValue(converted) else { return nil }
        self = number
    }

    // MARK: - Operations

    package static func add(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue {
        combine(lhs, rhs, integers: { $0.addingReportingOverflow($1) }, decimals: { $0 + $1 }, doubles: { $0 + $1 })
    }

    package static func subtract(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue {
        combine(lhs, rhs, integers: { $0.subtractingReportingOverflow($1) }, decimals: { $0 - $1 }, doubles: { $0 - $1 })
    }

    package static func multiply(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue {
        combine(lhs, rhs, integers: { $0.multipliedReportingOverflow(by: $1) }, decimals: { $0 * $1 }, doubles: { $0 * $1 })
    }

    /// `lhs / rhs` as a double; `nil` when `rhs` is zero.
    package static func divide(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue? {
        let divisor = rhs.doubleValue
        guard divisor != 0 else { return nil }
        return .double(lhs.doubleValue / divisor)
    }

    /// The remainder of `lhs / rhs`, with the sign of `lhs` (as C's `%` and `fmod`); `nil`
    /// when `rhs` is zero.
    package static func modulus(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue? {
        if case .integer(let a) = lhs, case .integer(let b) = rhs {
            guard b != 0 else { return nil }
            // Int64.min % -1 overflows in Swift; its remainder is 0.
            return .integer(a.remainderReportingOverflow(dividingBy: b).partialValue)
        }
        let divisor = rhs.doubleValue
        guard divisor != 0 else { return nil }
        return .double(lhs.doubleValue.truncatingRemainder(dividingBy: divisor))
    }

    /// `lhs` to the power `rhs`: an integer for an integer raised to a non-negative integer
    /// when the result fits, else a double (`pow`).
    package static func power(_ lhs: NumericValue, _ rhs: NumericValue) -> NumericValue {
        if case .integer(let base) = lhs, case .integer(let exponent) = rhs, exponent >= 0,
           let exact = integerPower(base, exponent) {
            return .integer(exact)
        }
        return .double(pow(lhs.doubleValue, rhs.doubleValue))
    }

    /// The absolute value; `Int64.min` becomes a double.
    package var magnitude: NumericValue {
        switch self {
        case .integer(let value):
            if value == .min { return .double(-Double(value)) }
            return .integer(Swift.abs(value))
        case .double(let value): return .double(Swift.abs(value))
        case .decimal(let value): return .decimal(value < 0 ? -value : value)
        }
    }

    // MARK: - Helpers

    private static func combine(
        _ lhs: NumericValue,
        _ rhs: NumericValue,
        integers: (Int64, Int64) -> (partialValue: Int64, overflow: Bool),
        decimals: (Decimal, Decimal) -> Decimal,
        doubles: (Double, Double) -> Double
    ) -> NumericValue {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)):
            let result = integers(a, b)
            return result.overflow ? .double(doubles(Double(a), Double(b))) : .integer(result.partialValue)
        case let (.decimal(a), .decimal(b)): return .decimal(decimals(a, b))
        case let (.decimal(a), .integer(b)): return .decimal(decimals(a, Decimal(b)))
        case let (.integer(a), .decimal(b)): return .decimal(decimals(Decimal(a), b))
        default: return .double(doubles(lhs.doubleValue, rhs.doubleValue))
        }
    }

    /// `base` to the power `exponent` by squaring; `nil` on overflow.
    private static func integerPower(_ base: Int64, _ exponent: Int64) -> Int64? {
        var result: Int64 = 1
        var factor = base
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 {
                let product = result.multipliedReportingOverflow(by: factor)
                if product.overflow { return nil }
                result = product.partialValue
            }
            remaining >>= 1
            if remaining > 0 {
                let square = factor.multipliedReportingOverflow(by: factor)
                if square.overflow { return nil }
                factor = square.partialValue
            }
        }
        return result
    }
}
