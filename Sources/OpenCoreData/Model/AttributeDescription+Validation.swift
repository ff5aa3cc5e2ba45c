import Foundation

// MARK: - Validation

extension AttributeDescription {
    /// The rules of the model this value breaks, as validation errors keyed by the
    /// attribute's name (the caller sets `objectID`). Empty when the value is valid.
    ///
    /// Pass the value after `canonicalValue(_:)`. Checked, as Core Data does (transient
    /// attributes included): a missing mandatory value; a value of the wrong type or a
    /// number that does not fit the type; minimum and maximum value (numbers, and dates
    /// as seconds since 2001); minimum and maximum length (string characters, data
    /// bytes); the regular expression a whole string must match.
    package func validationErrors(for value: Any?) -> [CoreDataError] {
        guard let value, isCanonical(value) else {
            if value != nil && !(value is NSNull) { return [wrongTypeError(value!)] }
            if isOptional { return [] }
            return [error(.validationMissingMandatoryProperty, "\(qualifiedName) is required but has no value.")]
        }
        if let nan = notANumberError(value) { return [nan] }
        // Transformable and undefined values are opaque: no range or length rules apply.
        guard hasValueRules, attributeType.canonicalSwiftType != nil else { return [] }
        // One cast, chosen by type: `isCanonical` guarantees it succeeds.
        switch attributeType {
        case .integer16: return (value as? Int16).map { numberErrors(Double($0), shown: "\($0)") } ?? []
        case .integer32: return (value as? Int32).map { numberErrors(Double($0), shown: "\($0)") } ?? []
        case .integer64: return (value as? Int64).map { numberErrors(Double($0), shown: "\($0)") } ?? []
        case .double: return (value as? Double).map { numberErrors($0, shown: "\($0)") } ?? []
        case .float: return (value as? Float).map { numberErrors(Double($0), shown: "\($0)") } ?? []
        case .decimal: return (value as? Decimal).map { numberErrors(Double($0.description) ?? .nan, shown: "\($0)") } ?? []
        case .date: return (value as? Date).map(dateErrors) ?? []
        case .string: return (value as? String).map { lengthErrors($0.count, unit: "character") + patternErrors($0) } ?? []
        case .binaryData: return (value as? Data).map { lengthErrors($0.count, unit: "byte") } ?? []
        default: return []
        }
    }

    /// Whether any range, length or pattern rule is set (most attributes have none).
    private var hasValueRules: Bool {
        minValue != nil || maxValue != nil || minLength != nil || maxLength != nil || regularExpression != nil
    }

    /// Whether `value` is a NaN of a Double, Float or Decimal attribute, or a Date
    /// attribute's date whose time interval is NaN.
    package func isNaN(_ value: Any?) -> Bool {
        switch attributeType {
        case .double: return (value as? Double)?.isNaN == true
        case .float: return (value as? Float)?.isNaN == true
        case .decimal: return (value as? Decimal)?.isNaN == true
        case .date: return (value as? Date)?.timeIntervalSinceReferenceDate.isNaN == true
        default: return false
        }
    }

    /// NaN cannot be stored: SQLite turns a Double NaN (and a date's NaN time interval)
    /// into NULL, a silent change, and a Decimal NaN into text no fetch can read back.
    /// Refused instead.
    private func notANumberError(_ value: Any) -> CoreDataError? {
        guard isNaN(value) else { return nil }
        let what = attributeType == .date ? "a date whose time interval is NaN" : "NaN"
        return error(.validationWrongType, "\(qualifiedName) is \(what), which a store cannot keep (SQLite stores it as NULL).")
    }

    private func error(_ code: CoreDataError.Code, _ message: String) -> CoreDataError {
        CoreDataError(code, message, key: name)
    }

    // MARK: - Type

    func wrongTypeError(_ value: Any) -> CoreDataError {
        let expected = attributeType.canonicalSwiftType.map { String(describing: $0) }
            ?? transformableValueType.map { String(describing: $0) } ?? "Any"
        var message = "\(qualifiedName) expects \(attributeType.displayName) (\(expected)) but got "
            + "\(Self.describe(value)) (\(type(of: value)))"
        if attributeType.isNumeric || attributeType == .boolean, ExactNumber(value) != nil {
            message += ", which does not fit \(attributeType.displayName)"
        }
        return error(.validationWrongType, message + ".")
    }

    /// A short, readable rendering of a value for messages.
    static func describe(_ value: Any) -> String {
        if let date = value as? Date { return format(date) }
        var text = value is String || value is Substring ? "\"\(value)\"" : "\(value)"
        if text.count > 60 { text = text.prefix(57) + "…" }
        return text
    }

    // MARK: - Ranges

    private func numberErrors(_ number: Double, shown: String) -> [CoreDataError] {
        if let minValue, number < minValue {
            return [error(.validationNumberTooSmall,
                          "\(qualifiedName) is too small: \(shown), at least \(Self.format(minValue)).")]
        }
        if let maxValue, number > maxValue {
            return [error(.validationNumberTooLarge,
                          "\(qualifiedName) is too large: \(shown), at most \(Self.format(maxValue)).")]
        }
        return []
    }

    private func dateErrors(_ date: Date) -> [CoreDataError] {
        let seconds = date.timeIntervalSinceReferenceDate
        if let minValue, seconds < minValue {
            let limit = Date(timeIntervalSinceReferenceDate: minValue)
            return [error(.validationDateTooSoon,
                          "\(qualifiedName) is too early: \(Self.format(date)), not before \(Self.format(limit)).")]
        }
        if let maxValue, seconds > maxValue {
            let limit = Date(timeIntervalSinceReferenceDate: maxValue)
            return [error(.validationDateTooLate,
                          "\(qualifiedName) is too late: \(Self.format(date)), not after \(Self.format(limit)).")]
        }
        return []
    }

    private func lengthErrors(_ length: Int, unit: String) -> [CoreDataError] {
        let shown = "\(length) \(unit)\(length == 1 ? "" : "s")"
        if let minLength, length < minLength {
            return [error(.validationStringTooShort, "\(qualifiedName) is too short: \(shown), at least \(minLength).")]
        }
        if let maxLength, length > maxLength {
            return [error(.validationStringTooLong, "\(qualifiedName) is too long: \(shown), at most \(maxLength).")]
        }
        return []
    }

    private static func format(_ number: Double) -> String {
        if let whole = Int64(exactly: number) { return "\(whole)" }
        return "\(number)"
    }

    /// `date` in ISO 8601; as its time interval outside the years 1 to 9999 that
    /// calendars cover (Foundation traps printing a NaN date).
    private static func format(_ date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        guard Swift.abs(interval) < 2.5e11 else { return "Date(timeIntervalSinceReferenceDate: \(interval))" }
        return date.formatted(.iso8601)
    }

    // MARK: - Regular expression

    private func patternErrors(_ string: String) -> [CoreDataError] {
        guard let pattern = regularExpression, !pattern.isEmpty else { return [] }
        switch RegularExpressionCache.wholeMatch(pattern) {
        case .failure(let problem):
            return [error(.validationStringPatternMatching,
                          "\(qualifiedName) has an invalid regular expression '\(pattern)' in the model: \(problem).")]
        case .success(let expression):
            let range = NSRange(string.startIndex..., in: string)
            if expression.firstMatch(in: string, range: range) != nil { return [] }
            return [error(.validationStringPatternMatching,
                          "\(qualifiedName) does not match the pattern '\(pattern)': \(Self.describe(string)).")]
        }
    }
}

/// Compiled whole-string regular expressions, by model pattern, shared by all attributes.
enum RegularExpressionCache {
    struct InvalidPattern: Error, CustomStringConvertible {
        var description: String
    }

    private static let compiled = SanitizedMutex<[String: Result<NSRegularExpression, InvalidPattern>]>([:])

    /// The pattern compiled to match a whole string (`\A(?:pattern)\z`), or why it is invalid.
    static func wholeMatch(_ pattern: String) -> Result<NSRegularExpression, InvalidPattern> {
        if let cached = compiled.withLock({ $0[pattern] }) { return cached }
        let result: Result<NSRegularExpression, InvalidPattern>
        do {
            // Compile the pattern alone first: wrapping could make a broken one valid.
            _ = try NSRegularExpression(pattern: pattern)
            result = .success(try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z"))
        } catch {
            result = .failure(InvalidPattern(description: "\(error)"))
        }
        compiled.withLock { $0[pattern] = result }
        return result
    }
}
