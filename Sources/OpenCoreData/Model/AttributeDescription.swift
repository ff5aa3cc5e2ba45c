import Foundation

/// The storage type of an attribute, as Xcode's model editor names them.
///
/// Both stores keep numbers as Core Data's SQLite store does (see
/// `valueAsSQLiteStores(_:)`): a `decimal` is exact when it is a whole number within 64
/// bits, otherwise it is kept as a double, so only about 15–17 significant
/// digits survive a save (a 38-digit `Decimal` comes back rounded); a `double`, `float`
/// or `date` of `-0.0` comes back `+0.0`.
public enum AttributeType: String, Sendable, CaseIterable {
    case integer16, integer32, integer64, decimal, double, float, string, boolean, date
    case binaryData, uuid, uri, transformable, objectID, undefined

    /// Whether values are numbers (integers, decimals, floating point, booleans excluded).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: return true
        default: return false
        }
    }
}

/// An attribute: a typed value stored in each instance of an entity.
public final class AttributeDescription: PropertyDescription, @unchecked Sendable {
    // @unchecked Sendable: edited only while its model is not frozen; read-only after.

    /// The attribute's type.
    public var attributeType: AttributeType {
        willSet { checkMutable("attributeType") }
    }
    /// The value a newly inserted object starts with (of the attribute's Swift type).
    public var defaultValue: (any Sendable)? {
        willSet { checkMutable("defaultValue") }
    }
    /// Numbers: the smallest allowed value. Dates: the earliest, as seconds since 2001.
    public var minValue: Double? {
        willSet { checkMutable("minValue") }
    }
    /// Numbers: the largest allowed value. Dates: the latest, as seconds since 2001.
    public var maxValue: Double? {
        willSet { checkMutable("maxValue") }
    }
    /// Strings and binary data: the shortest allowed length (characters or bytes).
    public var minLength: Int? {
        willSet { checkMutable("minLength") }
    }
    /// Strings and binary data: the longest allowed length (characters or bytes).
    public var maxLength: Int? {
        willSet { checkMutable("maxLength") }
    }
    /// Strings: a regular expression the whole value must match.
    public var regularExpression: String? {
        willSet { checkMutable("regularExpression") }
    }
    /// Transformable: the name of a registered `AttributeValueTransformer` that turns values into data.
    public var valueTransformerName: String? {
        willSet { checkMutable("valueTransformerName") }
    }
    /// Transformable: the class name Xcode records for the value. Without a
    /// `valueTransformerName`, a Codable type registered for this name
    /// (`ValueTransformerRegistry.registerCodableType(_:forClassName:)`) stores the value.
    public var attributeValueClassName: String? {
        willSet { checkMutable("attributeValueClassName") }
    }
    /// Transformable, for models built in Swift: the `Codable` type of the value, stored
    /// by the default Codable transformer when no `valueTransformerName` is set.
    public var transformableValueType: (any (Codable & Sendable).Type)? {
        willSet { checkMutable("transformableValueType") }
    }
    /// Binary data: Xcode's "Allows External Storage" (stored inline here).
    public var allowsExternalBinaryDataStorage = false {
        willSet { checkMutable("allowsExternalBinaryDataStorage") }
    }
    /// Whether the attribute has a fetch index of its own (Xcode's "Indexed").
    public var isIndexed = false {
        willSet { checkMutable("isIndexed") }
    }
    /// Xcode's "Preserve After Deletion": persistent history keeps the value of a deleted
    /// object in its delete change's `tombstone`, so readers can tell which object went.
    public var preservesValueInHistoryOnDeletion = false {
        willSet { checkMutable("preservesValueInHistoryOnDeletion") }
    }

    public init(
        name: String,
        type: AttributeType,
        isOptional: Bool = true,
        isTransient: Bool = false,
        defaultValue: (any Sendable)? = nil
    ) {
        self.attributeType = type
        self.defaultValue = defaultValue
        super.init(name: name, isOptional: isOptional, isTransient: isTransient)
    }
}
