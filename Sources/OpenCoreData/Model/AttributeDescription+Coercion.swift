import Foundation

// MARK: - Canonical types

extension AttributeType {
    /// The Swift type every value of this attribute type is stored as, when there is one:
    /// `nil` for transformable and undefined attributes, which accept any value.
    package var canonicalSwiftType: Any.Type? {
        switch self {
        case .integer16: return Int16.self
        case .integer32: return Int32.self
        case .integer64: return Int64.self
        case .decimal: return Decimal.self
        case .double: return Double.self
        case .float: return Float.self
        case .string: return String.self
        case .boolean: return Bool.self
        case .date: return Date.self
        case .binaryData: return Data.self
        case .uuid: return UUID.self
        case .uri: return URL.self
        case .objectID: return ManagedObjectID.self
        case .transformable, .undefined: return nil
        }
    }

    /// The type's name as Xcode's model editor shows it ("Integer 16"), for messages.
    package var displayName: String {
        self == .binaryData ? "Binary Data" : xcodeName
    }
}

// MARK: - Coercion

extension AttributeDescription {
    /// "Entity.attribute", for messages.
    package var qualifiedName: String { "\(entity?.name ?? "?").\(name)" }

    /// The value converted to the attribute's canonical Swift type (`Int16` for Integer 16,
    /// `Date` for Date, …) when that conversion is exact; otherwise the value unchanged,
    /// so that validation reports it rather than the value silently changing.
    ///
    /// `nil` and `NSNull` become `nil`. Numbers of any Swift or Foundation type convert
    /// when no digit is lost (see `ExactNumber`); `0` and `1` convert to `Bool`; `NSString`,
    /// `Substring`, `NSDate`, `NSData`, `[UInt8]`, `NSUUID` and `NSURL` convert to their
    /// Swift value types. Transformable and undefined attributes keep any value.
    package func canonicalValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let valueType = type(of: value)
        // Fast path: the value already has the canonical type.
        if let expected = attributeType.canonicalSwiftType, valueType == expected { return value }
        if value is NSNull { return nil }
        // An optional inside `Any` (from a `[String: Any]`, say) stands for its content.
        if let optional = value as? any OptionalValue { return canonicalValue(optional.wrappedValue) }
        return converted(value) ?? value
    }

    /// `canonicalValue(_:)`, and whether the result has the canonical type (nil counts as
    /// canonical): lets objects skip re-checking types at save.
    package func canonicalize(_ value: Any?) -> (value: Any?, isCanonical: Bool) {
        guard let value else { return (nil, true) }
        if let expected = attributeType.canonicalSwiftType, type(of: value) == expected { return (value, true) }
        let converted = canonicalValue(value)
        return (converted, converted.map(isCanonical) ?? true)
    }

    /// Whether a (non-nil) value has the attribute's canonical type.
    package func isCanonical(_ value: Any) -> Bool {
        if let expected = attributeType.canonicalSwiftType { return type(of: value) == expected }
        if attributeType == .transformable, let valueType = transformableValueType {
            return Self.value(value, isOf: valueType)
        }
        return true
    }

    private static func value<T>(_ value: Any, isOf _: T.Type) -> Bool { value is T }

    /// The exact conversion of a value that does not have the canonical type, if any.
    private func converted(_ value: Any) -> Any? {
        switch attributeType {
        case .integer16: return ExactNumber(value)?.integer(Int16.self)
        case .integer32: return ExactNumber(value)?.integer(Int32.self)
        case .integer64: return ExactNumber(value)?.integer(Int64.self)
        case .decimal: return ExactNumber(value)?.decimal
        case .double: return ExactNumber(value)?.double
        case .float: return ExactNumber(value)?.float
        case .boolean: return ExactNumber(value)?.bool
        case .string:
            if let substring = value as? Substring { return String(substring) }
            return type(of: value) is NSString.Type ? value as? String : nil
        case .date: return type(of: value) is NSDate.Type ? value as? Date : nil
        case .binaryData:
            if let bytes = value as? [UInt8] { return Data(bytes) }
            return type(of: value) is NSData.Type ? value as? Data : nil
        case .uuid: return type(of: value) is NSUUID.Type ? value as? UUID : nil
        case .uri: return type(of: value) is NSURL.Type ? value as? URL : nil
        case .objectID, .transformable, .undefined: return nil
        }
    }
}

// MARK: - Optionals inside Any

/// Lets `canonicalValue(_:)` see through an `Optional` boxed in `Any`.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 } }
}
