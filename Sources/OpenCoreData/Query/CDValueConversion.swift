import Foundation

// MARK: - Converting Swift values

extension CDValue {
    /// Converts a value given as `Any` — a format-string argument, a constant — to a `CDValue`.
    ///
    /// Accepts `nil`/`NSNull`, `Bool`, integers of every width, `Float`/`Double`/`CGFloat`,
    /// `Decimal`, `NSNumber`, `String`/`Substring`, `Date`, `Data`, `UUID`, `URL`,
    /// `ManagedObjectID`, `ManagedObject` (which becomes its `objectID`), `CDValue`,
    /// and arrays or sets of those. Anything else throws `.invalidPredicate`.
    public init(argument: Any?) throws {
        do {
            self = try CDValue.convert(argument)
        } catch let unsupported as UnsupportedValueError {
            throw CoreDataError(
                .invalidPredicate,
                "A predicate cannot hold a value of type \(unsupported.typeName); use numbers, strings, dates, data, UUIDs, URLs, object IDs or arrays of those"
            )
        }
    }

    /// Converts a value read from an object (e.g. through `KeyValueCoding`) for comparison;
    /// `nil` when the value has no `CDValue` form (e.g. an arbitrary object).
    package init?(converting value: Any?) {
        guard let converted = try? CDValue.convert(value) else { return nil }
        self = converted
    }

    /// A value the conversion does not support.
    private struct UnsupportedValueError: Error {
        let typeName: String
    }

    private static func convert(_ raw: Any?) throws -> CDValue {
        guard let value = flattenOptional(raw) else { return .null }
        // A managed object (a to-one value, compared by a controller's predicate for every
        // changed object) first: the number and value-type casts below fail slowly on it.
        if let object = value as? ManagedObject { return .objectID(object.objectID) }
        if let number = convertNumber(value) { return number }
        switch value {
        case let v as CDValue: return v
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Date: return .date(v)
        case let v as Data: return .data(v)
        case let v as UUID: return .uuid(v)
        case let v as URL: return .url(v)
        case let v as ManagedObjectID: return .objectID(v)
        case let v as any IdentifiedObject: return .objectID(v.objectID)
        case is NSNull: return .null
        case let v as EvaluatedCollection: return .array(try v.elements.map(convert))
        case let v as [Any?]: return .array(try v.map(convert))
        case let v as [Any]: return .array(try v.map(convert))
        case let v as Set<AnyHashable>: return .array(try v.map { try convert($0.base) })
        case let v as NSSet: return .array(try v.allObjects.map(convert))
        default: throw UnsupportedValueError(typeName: String(describing: type(of: value)))
        }
    }

    // MARK: - Numbers

    /// Numbers of every Swift width, and `NSNumber`; `nil` for anything else.
    private static func convertNumber(_ value: Any) -> CDValue? {
        // An `NSNumber` instance first: plain Swift numbers also cast to `NSNumber`.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return convert(number)
        }
        switch value {
        case let v as Bool: return .bool(v)
        case let v as Int: return .int64(Int64(v))
        case let v as Int8: return .int64(Int64(v))
        case let v as Int16: return .int64(Int64(v))
        case let v as Int32: return .int64(Int64(v))
        case let v as Int64: return .int64(v)
        case let v as UInt: return unsigned(UInt64(v))
        case let v as UInt8: return .int64(Int64(v))
        case let v as UInt16: return .int64(Int64(v))
        case let v as UInt32: return .int64(Int64(v))
        case let v as UInt64: return unsigned(v)
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as CGFloat: return .double(Double(v))
        case let v as Decimal: return .decimal(v)
        default: return nil
        }
    }

    /// An unsigned integer: exact as `.int64` when it fits, else as `.decimal`.
    private static func unsigned(_ value: UInt64) -> CDValue {
        if let exact = Int64(exactly: value) { return .int64(exact) }
        return .decimal(Decimal(value))
    }

    private static func convert(_ number: NSNumber) -> CDValue {
        if let decimal = number as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        switch String(cString: number.objCType) {
        case "B": return .bool(number.boolValue)
        case "c":
            // Bool and Int8 share the "c" type code; 0 and 1 compare the same either way.
            let small = number.int64Value
            return (small == 0 || small == 1) ? .bool(small == 1) : .int64(small)
        case "d", "f": return .double(number.doubleValue)
        case "Q", "L": return unsigned(number.uint64Value)
        default: return .int64(number.int64Value)
        }
    }
}

// MARK: - Optionals

extension CDValue {
    /// Unwraps an optional hidden inside `Any` (at any depth): `Optional<Int>.none` as `Any` is `nil`.
    package static func flattenOptional(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // Most values are no optionals: their type's kind says so at once, where the
        // conformance cast below costs thousands of instructions on a class instance.
        guard _openExistential(value, do: isOptionalValue) else { return value }
        if let optional = value as? any OptionalFlattening { return optional.flattenedValue }
        return value
    }
}

/// Whether `T`, the dynamic type of the value it is opened from, is an `Optional`.
private func isOptionalValue<T>(_: T) -> Bool { _isOptional(T.self) }

/// Lets `flattenOptional` see through optionals boxed in `Any`.
private protocol OptionalFlattening {
    var flattenedValue: Any? { get }
}

extension Optional: OptionalFlattening {
    fileprivate var flattenedValue: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return CDValue.flattenOptional(wrapped)
        }
    }
}
