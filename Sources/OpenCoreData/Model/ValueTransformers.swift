import Foundation

// MARK: - Transformer protocol

/// Turns the value of a transformable attribute into data for the store, and back.
///
/// This is Core Data's `NSValueTransformer` idea for transformable attributes, named
/// apart from Foundation's `ValueTransformer`. Register an instance under the name the
/// model gives in `valueTransformerName`:
///
/// ```swift
/// ValueTransformerRegistry.setValueTransformer(ColorTransformer(), forName: "ColorTransformer")
/// ```
public protocol AttributeValueTransformer: Sendable {
    /// The data that stores `value` (`nil` stores no data). Throw when it cannot be stored.
    func transformedValue(_ value: Any?) throws -> Data?
    /// The value stored as `data`. Throw when the data is not what this transformer wrote.
    func reverseTransformedValue(_ data: Data?) throws -> Any?
}

// MARK: - Codable transformer

/// The default transformer: stores a `Codable` value as a binary property list.
///
/// Binary property lists keep `Data`, `Date` and every `Double` exactly and are compact;
/// they are also what Core Data's own keyed archives use. The value is wrapped in a
/// one-element array, so numbers and strings (not only containers) can be stored.
public struct CodableValueTransformer<Value: Codable & Sendable>: AttributeValueTransformer {
    /// A transformer for values of `Value` (`CodableValueTransformer(Point.self)`).
    public init(_ type: Value.Type = Value.self) {}

    /// `value` (which must be a `Value`) as a binary property list.

    public func transformedValue(_ value: Any?) throws -> Data? {
        guard let value else { return nil }
        guard let typed = value as? Value else {
            throw CoreDataError(.transformerFailed, "Cannot store \(type(of: value)) as \(Value.self).")
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode([typed])
    }

    /// The `Value` that `transformedValue(_:)` wrote as `data`.
    public func reverseTransformedValue(_ data: Data?) throws -> Any? {
        guard let data else { return nil }
        let values = try PropertyListDecoder().decode([Value].self, from: data)
        guard values.count == 1 else {
            throw CoreDataError(.transformerFailed, "The stored data holds \(values.count) values of \(Value.self), not one.")
        }
        return values[0]
    }
}

// MARK: - Registry

/// The value transformers and `Codable` value types that transformable attributes name.
///
/// Thread-safe; register before loading stores that use them.
public enum ValueTransformerRegistry {
    private static let transformers = SanitizedMutex<[String: any AttributeValueTransformer]>([:])
    private static let codableTypes = SanitizedMutex<[String: any (Codable & Sendable).Type]>(builtInCodableTypes())

    /// Registers `transformer` under `name` (replacing any other); `nil` removes it.
    public static func setValueTransformer(_ transformer: (any AttributeValueTransformer)?, forName name: String) {
        transformers.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`, if any.
    public static func valueTransformer(forName name: String) -> (any AttributeValueTransformer)? {
        transformers.withLock { $0[name] }
    }

    /// Binds the class name a loaded model records for a transformable attribute
    /// (`attributeValueClassName`) to the `Codable` type that stores its values.
    /// By default the name is the type's Swift name (`"Array<String>"`, `"Point"`).
    public static func registerCodableType<T: Codable & Sendable>(_ type: T.Type, forClassName name: String? = nil) {
        let name = name ?? String(describing: type)
        codableTypes.withLock { $0[name] = type }
    }

    /// The `Codable` type registered for a class name, if any.
    public static func codableType(forClassName name: String) -> (any (Codable & Sendable).Type)? {
        codableTypes.withLock { $0[name] }
    }

    /// Foundation value types under their Swift and Objective-C class names.
    private static func builtInCodableTypes() -> [String: any (Codable & Sendable).Type] {
        var types: [String: any (Codable & Sendable).Type] = [
            "NSString": String.self, "NSData": Data.self, "NSDate": Date.self, "NSURL": URL.self,
            "NSUUID": UUID.self, "NSDecimalNumber": Decimal.self,
        ]
        let swiftTypes: [any (Codable & Sendable).Type] = [
            String.self, Data.self, Date.self, URL.self, UUID.self, Decimal.self, Int.self, Int64.self,
            Double.self, Bool.self, [String].self, [Int].self, [Double].self, [String: String].self,
            [String: Int].self, [String: Double].self,
        ]
        for type in swiftTypes { types[String(describing: type)] = type }
        let sugared: [String: any (Codable & Sendable).Type] = [
            "[String]": [String].self, "[Int]": [Int].self, "[Double]": [Double].self,
            "[String: String]": [String: String].self, "[String: Int]": [String: Int].self,
            "[String: Double]": [String: Double].self,
        ]
        types.merge(sugared) { _, new in new }
        return types
    }
}

// MARK: - Resolving an attribute's transformer

extension AttributeDescription {
    /// The names of Apple's keyed-archive transformers, which Xcode writes by default. Unless
    /// someone registers a transformer under one of them, they mean "the default transformer".
    package static let archiveTransformerNames: Set<String> = [
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer",
        "NSKeyedUnarchiveFromData", "NSUnarchiveFromData",
    ]

    /// The transformer that stores this transformable attribute's values: the one registered
    /// under `valueTransformerName`, else a `CodableValueTransformer` for
    /// `transformableValueType`, else for the type registered for `attributeValueClassName`.
    /// Throws `.transformerFailed` when none of these exists.
    package func valueTransformer() throws -> any AttributeValueTransformer {
        if let name = valueTransformerName, !name.isEmpty {
            if let transformer = ValueTransformerRegistry.valueTransformer(forName: name) { return transformer }
            guard Self.archiveTransformerNames.contains(name) else {
                throw transformerError("no value transformer named '\(name)' is registered "
                    + "(see ValueTransformerRegistry.setValueTransformer(_:forName:))")
            }
        }
        if let type = transformableValueType { return Self.codableTransformer(for: type) }
        if let className = attributeValueClassName, !className.isEmpty {
            guard let type = ValueTransformerRegistry.codableType(forClassName: className) else {
                throw transformerError("no Codable type is registered for class name '\(className)' "
                    + "(see ValueTransformerRegistry.registerCodableType(_:forClassName:))")
            }
            return Self.codableTransformer(for: type)
        }
        throw transformerError("it has no valueTransformerName, no transformableValueType "
            + "and no attributeValueClassName")
    }

    /// The data that stores `value`, through `valueTransformer()`.
    package func transformedData(_ value: Any?) throws -> Data? {
        let transformer = try valueTransformer()
        do { return try transformer.transformedValue(value) } catch { throw transformerError(error) }
    }

    /// The value stored as `data`, through `valueTransformer()`.
    package func reverseTransformedValue(_ data: Data?) throws -> Any? {
        let transformer = try valueTransformer()
        do { return try transformer.reverseTransformedValue(data) } catch { throw transformerError(error) }
    }

    private static func codableTransformer<T: Codable & Sendable>(for _: T.Type) -> any AttributeValueTransformer {
        CodableValueTransformer<T>()
    }

    private func transformerError(_ reason: String) -> CoreDataError {
        CoreDataError(.transformerFailed, "\(qualifiedName) cannot be transformed: \(reason).", key: name)
    }

    private func transformerError(_ underlying: any Error) -> CoreDataError {
        let reason = (underlying as? CoreDataError)?.message ?? "\(underlying)"
        return transformerError(reason.hasSuffix(".") ? String(reason.dropLast()) : reason)
    }
}
