import Foundation

/// A constant a predicate can hold: the `Sendable` form of the values
/// Core Data lets you put in a predicate (numbers, strings, dates, object IDs…).
///
/// Arguments given as `Any` (to `CDPredicate(format:)` or `CDExpression(forConstantValue:)`)
/// are converted to a `CDValue` once, so predicates stay immutable and `Sendable`.
/// Equality here is structural (`.int64(1) != .double(1)`); use `ValueComparison`
/// for Foundation's comparison rules.
public enum CDValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int64(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    case objectID(ManagedObjectID)
    case array([CDValue])

    // MARK: - Inspection

    /// Whether the value is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether the value is a number (booleans and decimals included).
    public var isNumeric: Bool {
        switch self {
        case .bool, .int64, .double, .decimal: return true
        default: return false
        }
    }

    /// The value as a Swift value (`nil` for `.null`, `[Any?]` for arrays),
    /// e.g. to hand back to callers that work with `Any`.
    public var anyValue: Any? {
        switch self {
        case .null: return nil
        case .bool(let value): return value
        case .int64(let value): return value
        case .double(let value): return value
        case .decimal(let value): return value
        case .string(let value): return value
        case .date(let value): return value
        case .data(let value): return value
        case .uuid(let value): return value
        case .url(let value): return value
        case .objectID(let value): return value
        case .array(let values): return values.map(\.anyValue)
        }
    }

    // MARK: - Equatable and Hashable

    /// Structural equality; unlike `Double`, a NaN constant equals itself so that
    /// every tree equals its own copy.
    public static func == (lhs: CDValue, rhs: CDValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int64(a), .int64(b)): return a == b
        case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.decimal(a), .decimal(b)): return a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): return a == b
        case let (.date(a), .date(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.url(a), .url(b)): return a == b
        case let (.objectID(a), .objectID(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .int64(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value):
            hasher.combine(3)
            if value.isNaN { hasher.combine(Double.nan.bitPattern) } else { hasher.combine(value) }
        case .decimal(let value):
            hasher.combine(4)
            // Decimal's own hash is unreliable across representations; hash its Double approximation.
            let approximation = NSDecimalNumber(decimal: value).doubleValue
            hasher.combine(approximation.isNaN ? Double.nan.bitPattern : approximation.bitPattern)
        case .string(let value): hasher.combine(5); hasher.combine(value)
        case .date(let value): hasher.combine(6); hasher.combine(value)
        case .data(let value): hasher.combine(7); hasher.combine(value)
        case .uuid(let value): hasher.combine(8); hasher.combine(value)
        case .url(let value): hasher.combine(9); hasher.combine(value)
        case .objectID(let value): hasher.combine(10); hasher.combine(value)
        case .array(let values): hasher.combine(11); hasher.combine(values)
        }
    }
}

// MARK: - Literals

extension CDValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int64(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: CDValue...) { self = .array(elements) }
}

// MARK: - Description

extension CDValue: CustomStringConvertible {
    /// The value as the predicate format language writes it (see `PredicateFormatPrinter`).
    public var description: String { PredicateFormatPrinter.format(self) }
}
