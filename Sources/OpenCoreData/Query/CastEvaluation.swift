import Foundation

/// `CAST(value, 'Type')` — the `castObject:toType:` function — for the types Core Data's
/// predicates cast to:
///
/// - `NSDate`: a number is seconds since 2001-01-01 00:00 UTC (as `CAST(…, 'NSDate')`
///   in a Core Data predicate); a date stays itself.
/// - `NSNumber`: numbers stay themselves; a string is read as an integer, else as a
///   double (surrounding whitespace ignored; anything else gives `nil`); a date gives its
///   seconds since 2001-01-01; a Boolean 0 or 1.
/// - `NSDecimalNumber`: as `NSNumber`, as a decimal (a string read exactly).
/// - `NSString`: a string stays itself; a whole number is written without a fraction
///   (`3.0` → `"3"`); other doubles with Swift's shortest round-tripping digits; a date
///   as `NSDate`'s description (`2001-01-01 00:00:00 +0000`); a UUID as its string.
///
/// `nil` casts to `nil`. Other types and values that cannot be converted are errors.
enum CastEvaluation {
    static func cast(_ value: Any?, to type: Any?) throws -> Any? {
        guard let typeName = PredicateEvaluator.string(type) else {
            throw CoreDataError(.invalidPredicate, "CAST needs a type name string ('NSDate', 'NSNumber', 'NSString'…)")
        }
        guard let value = CDValue.flattenOptional(value) else { return nil }
        let converted = CDValue(converting: value)
        switch typeName {
        case "NSDate", "Date":
            if case .date(let date)? = converted { return date }
            if let number = converted.flatMap(NumericValue.init) { return Date(timeIntervalSinceReferenceDate: number.doubleValue) }
        case "NSNumber":
            if let number = number(converted) { return number.anyValue }
            if case .string? = converted { return nil }
        case "NSDecimalNumber":
            if case .string(let text)? = converted {
                // Decimal(string:) reads a prefix ("1.5x" is 1.5): check the whole text is a number first.
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard Double(trimmed) != nil else { return nil }
                return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
            }
            if let number = number(converted) {
                switch number {
                case .integer(let integer): return Decimal(integer)
                case .double(let double):
                    // Decimal covers about ±1e165; beyond (and NaN or infinity) there is no decimal.
                    guard double.isFinite, Swift.abs(double) < 1e120 else { break }
                    return Decimal(double)
                case .decimal(let decimal): return decimal
                }
            }
        case "NSString", "String":
            if let text = converted.flatMap(string) { return text }
        default:
            throw CoreDataError(.invalidPredicate, "CAST to '\(typeName)' is not supported; use NSDate, NSNumber, NSDecimalNumber or NSString", key: typeName)
        }
        throw CoreDataError(.invalidPredicate, "Cannot CAST a value of type \(Swift.type(of: value)) to \(typeName)", key: typeName)
    }

    /// A number for `NSNumber`: numbers as they are, strings parsed (`nil` when they are
    /// not numbers), dates as seconds since the reference date.
    private static func number(_ value: CDValue?) -> NumericValue? {
        switch value {
        case let value? where NumericValue(value) != nil: return NumericValue(value)
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let integer = Int64(trimmed) { return .integer(integer) }
            if let double = Double(trimmed) { return .double(double) }
            return nil
        case .date(let date)?: return .double(date.timeIntervalSinceReferenceDate)
        default: return nil
        }
    }

    /// The text `CAST(value, 'NSString')` gives, or `nil` when there is none.
    static func string(_ value: CDValue) -> String? {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "1" : "0"
        case .int64(let integer): return String(integer)
        case .double(let double):
            if let whole = Int64(exactly: double) { return String(whole) }
            return "\(double)"
        case .decimal(let decimal): return "\(decimal)"
        case .date(let date):
            // Calendars cover years 1 to 9999 reliably; other dates have no description.
            guard Swift.abs(date.timeIntervalSinceReferenceDate) < 2.5e11 else { return nil }
            return dateDescription(date)
        case .uuid(let uuid): return uuid.uuidString
        case .url(let url): return url.absoluteString
        default: return nil
        }
    }

    private static func dateDescription(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        return "\(String(format: "%04ld", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
