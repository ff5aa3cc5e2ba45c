import Foundation

/// Reads stored attribute values as numbers, the way SQLite's arithmetic and aggregates
/// see the columns: integers (and booleans) as `Int64`, everything numeric as `Double`.
enum StoredNumber {
    static func integer(_ value: Any) -> Int64? {
        switch value {
        case let number as Int64: return number
        case let number as Int32: return Int64(number)
        case let number as Int16: return Int64(number)
        case let number as Int: return Int64(number)
        case let flag as Bool: return flag ? 1 : 0
        default: return nil
        }
    }

    static func double(_ value: Any) -> Double? {
        if let integer = integer(value) { return Double(integer) }
        switch value {
        case let number as Double: return number
        case let number as Float: return Double(number)
        case let number as Decimal: return NSDecimalNumber(decimal: number).doubleValue
        case let date as Date: return date.timeIntervalSinceReferenceDate
        default: return nil
        }
    }
}
