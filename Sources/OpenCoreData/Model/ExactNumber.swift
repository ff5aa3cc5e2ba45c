import Foundation

/// A number read from any Swift or Foundation numeric value without loss, so that it is
/// converted to an attribute's type only when the conversion is exact.
///
/// Integers convert to integers and floating-point types when the value is unchanged.
/// Floating-point values (`Float`, `Double`, `Decimal`) convert to each other through their
/// shortest decimal form: `0.1` as a `Double` becomes `Float(0.1)` or `Decimal` `0.1`,
/// because the converted value prints (and converts back) the same. A conversion that
/// would round the value (`2.5` to an integer, `70000` to `Int16`) does not exist.
enum ExactNumber {
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case boolean(Bool)

    /// The class Foundation uses for boolean `NSNumber`s (`NSNumber(value: true)`).
    private static let booleanNumberClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    // MARK: - Reading

    /// Reads a Swift number, `Bool`, `Decimal` or `NSNumber`; `nil` for anything else.
    init?(_ value: Any) {
        // NSNumber first: Swift casts would bridge it to any numeric type.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            self.init(number: number)
            return
        }
        switch value {
        case let v as Int: self = .signed(Int64(v))
        case let v as Int64: self = .signed(v)
        case let v as Int32: self = .signed(Int64(v))
        case let v as Int16: self = .signed(Int64(v))
        case let v as Int8: self = .signed(Int64(v))
        case let v as UInt: self = .unsigned(UInt64(v))
        case let v as UInt64: self = .unsigned(v)
        case let v as UInt32: self = .unsigned(UInt64(v))
        case let v as UInt16: self = .unsigned(UInt64(v))
        case let v as UInt8: self = .unsigned(UInt64(v))
        case let v as Double: self = .double(v)
        case let v as Float: self = .float(v)
        case let v as CGFloat: self = .double(Double(v))
        case let v as Decimal: self = .decimal(v)
        case let v as Bool: self = .boolean(v)
        default: return nil
        }
    }

    private init(number: NSNumber) {
        if let decimal = number as? NSDecimalNumber {
            self = .decimal(decimal.decimalValue)
            return
        }
        if ObjectIdentifier(type(of: number)) == Self.booleanNumberClass {
            self = .boolean(number.boolValue)
            return
        }
        switch String(cString: number.objCType) {
        case "f": self = .float(number.floatValue)
        case "d": self = .double(number.doubleValue)
        case "C", "S", "I", "L", "Q": self = .unsigned(number.uint64Value)
        default: self = .signed(number.int64Value)
        }
    }

    // MARK: - Converting

    /// The value as an integer type, if it is a whole number that fits.
    func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        switch self {
        case .signed(let v): return T(exactly: v)
        case .unsigned(let v): return T(exactly: v)
        case .double(let v): return T(exactly: v)
        case .float(let v): return T(exactly: v)
        case .decimal(let v): return Self.wholeNumber(v).flatMap { T(exactly: $0) }
        case .boolean: return nil
        }
    }

    /// The value as a `Double`, if no digit is lost.
    var double: Double? {
        switch self {
        case .signed(let v): return Double(exactly: v)
        case .unsigned(let v): return Double(exactly: v)
        case .double(let v): return v
        case .float(let v): return Double(v.description)
        case .decimal(let v):
            guard let result = Double(v.description), Decimal(string: result.description) == v else { return nil }
            return result
        case .boolean: return nil
        }
    }

    /// The value as a `Float`, if no digit is lost.
    var float: Float? {
        switch self {
        case .signed(let v): return Float(exactly: v)
        case .unsigned(let v): return Float(exactly: v)
        case .double(let v):
            if v.isNaN { return .nan }
            let result = Float(v)
            return Double(result) == v || Double(result.description) == v ? result : nil
        case .float(let v): return v
        case .decimal(let v):
            guard let result = Float(v.description), Decimal(string: result.description) == v else { return nil }
            return result
        case .boolean: return nil
        }
    }

    /// The value as a `Decimal`, if no digit is lost (finite values only).
    var decimal: Decimal? {
        switch self {
        case .signed(let v): return Decimal(v)
        case .unsigned(let v): return Decimal(v)
        case .double(let v): return Self.decimal(fromShortest: v.description, isFinite: v.isFinite, equals: { Double($0) == v })
        case .float(let v): return Self.decimal(fromShortest: v.description, isFinite: v.isFinite, equals: { Float($0) == v })
        case .decimal(let v): return v
        case .boolean: return nil
        }
    }

    /// The value as a `Bool`: a boolean, or a number that is exactly 0 or 1.
    var bool: Bool? {
        if case .boolean(let v) = self { return v }
        switch integer(Int8.self) {
        case 0: return false
        case 1: return true
        default: return nil
        }
    }

    // MARK: - Helpers

    /// A whole `Decimal` as `Int64`; `nil` when it has a fraction or does not fit.
    static func wholeNumber(_ value: Decimal) -> Int64? {
        guard value.isFinite else { return nil }
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, 0, .plain)
        guard rounded == value, let result = Int64(rounded.description) else { return nil }
        return result
    }

    private static func decimal(fromShortest text: String, isFinite: Bool, equals: (String) -> Bool) -> Decimal? {
        guard isFinite, let result = Decimal(string: text), equals(result.description) else { return nil }
        return result
    }
}
