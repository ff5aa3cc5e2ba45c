import Foundation

/// `CAST(value, "Type")` with constant operands, folded to a typed constant at parse time.
///
/// This is also how the printer writes constants that have no literal of their own
/// (dates, decimals, UUIDs, URLs, data, non-finite doubles), so that they survive a
/// print → parse round trip.
enum PredicateCast {
    /// The function name Core Data gives `CAST` (used when the operands are not constants).
    static let functionName = "castObject:toType:"

    /// The type names `fold` knows.
    static func isFoldable(_ typeName: String) -> Bool {
        ["NSDate", "NSDecimalNumber", "NSNumber", "NSString", "NSUUID", "NSURL", "NSData"].contains(typeName)
    }

    /// The constant `value` converted to `typeName`, or `nil` when it cannot be converted.
    static func fold(_ value: CDValue, to typeName: String) -> CDValue? {
        switch (typeName, value) {
        case ("NSDate", .date):
            return value
        case ("NSDate", _):
            return seconds(value).flatMap { $0.isFinite ? .date(Date(timeIntervalSinceReferenceDate: $0)) : nil }
        case ("NSDecimalNumber", .decimal):
            return value
        case ("NSDecimalNumber", .int64(let number)):
            return .decimal(Decimal(number))
        case ("NSDecimalNumber", .string(let text)):
            return exactDecimal(text).map { .decimal($0) }
        case ("NSNumber", .string(let text)):
            return number(text)
        case ("NSNumber", _) where value.isNumeric:
            return value
        case ("NSString", _):
            // The same text as the cast of a non-constant value (`CastEvaluation`), so that
            // `CAST(1.5, 'NSString')` folds to '1.5' instead of being refused.
            return CastEvaluation.string(value).map { .string($0) }
        case ("NSUUID", .string(let text)):
            return UUID(uuidString: text).map { .uuid($0) }
        case ("NSURL", .string(let text)):
            return URL(string: text).map { .url($0) }
        case ("NSData", .string(let text)):
            return Data(base64Encoded: text).map { .data($0) }
        default:
            return nil
        }
    }

    // MARK: - Helpers

    private static func seconds(_ value: CDValue) -> Double? {
        switch value {
        case .int64(let number): return Double(number)
        case .double(let number): return number
        case .decimal(let number): return NSDecimalNumber(decimal: number).doubleValue
        default: return nil
        }
    }

    /// A decimal from text only when the whole text is a decimal number.
    private static func exactDecimal(_ text: String) -> Decimal? {
        let allowed = Set("0123456789+-.eE")
        guard !text.isEmpty, text.allSatisfy({ allowed.contains($0) }) else { return nil }
        let scanner = Scanner(string: text)
        guard let scanned = scanner.scanDecimal(), scanner.isAtEnd else { return nil }
        return scanned
    }

    /// A number from text: an integer when exact, else a double (`"nan"`, `"inf"` included).
    private static func number(_ text: String) -> CDValue? {
        if let integer = Int64(text) { return .int64(integer) }
        return Double(text).map { .double($0) }
    }
}
