import Foundation

// MARK: - Entity version hashes

extension EntityDescription {
    /// A SHA-256 digest of everything about the entity that affects how its data is stored.
    ///
    /// A store records the hash of each entity it was written with; a model whose hashes
    /// differ needs a migration. As Core Data documents for `NSEntityDescription.versionHash`,
    /// the hash covers the entity's name, whether it is abstract, its superentity's version
    /// hash (so a change to a parent changes its sub-entities), its `versionHashModifier`, and
    /// the version hash of each property it declares.
    ///
    /// Unlike Core Data, transient properties are left out: they are never stored, so adding
    /// or changing one needs no migration. The class name, user info, renaming identifiers,
    /// uniqueness constraints and fetch indexes are left out too (as in Core Data).
    ///
    /// Encoding (version 1): each field is a 4-byte big-endian length followed by its bytes;
    /// strings are UTF-8, booleans "1"/"0", integers decimal; an optional field is a flag
    /// field followed, when present, by the value. The fields are the tag
    /// `OpenCoreData.entity.v1`, the name, isAbstract, the optional superentity hash, the
    /// optional modifier, the number of stored properties, and their hashes ordered by name.
    public var versionHash: Data {
        var encoder = VersionHashEncoder(tag: "OpenCoreData.entity.v1")
        encoder.string(name)
        encoder.flag(isAbstract)
        encoder.optional(superentity?.versionHash) { $0.bytes($1) }
        encoder.optional(versionHashModifier) { $0.string($1) }
        let stored = properties.filter { !$0.isTransient }.sorted { $0.name < $1.name }
        encoder.integer(stored.count)
        for property in stored { encoder.bytes(property.versionHash) }
        return encoder.digest
    }
}

// MARK: - Property version hashes

extension PropertyDescription {
    /// A SHA-256 digest of everything about the property that affects how it is stored.
    ///
    /// As Core Data documents for `NSPropertyDescription.versionHash` and its subclasses:
    /// the name, `isOptional`, `isTransient` and `versionHashModifier`; for attributes the
    /// attribute type; for relationships the destination entity's name, the inverse's name,
    /// `isToMany`, `isOrdered`, `minCount` and `maxCount`. Delete rules, validation settings
    /// (ranges, lengths, patterns), default values, user info and renaming identifiers do
    /// not change how data is stored and are left out.
    ///
    /// Encoding (version 1), in the field format described on `EntityDescription.versionHash`:
    /// the tag `OpenCoreData.property.v1`, the kind ("attribute" or "relationship"), the
    /// name, isOptional, isTransient, the optional modifier, then for an attribute Xcode's
    /// name for its type, and for a relationship the destination name, the optional inverse
    /// name, isToMany, isOrdered, minCount and maxCount.
    public var versionHash: Data {
        var encoder = VersionHashEncoder(tag: "OpenCoreData.property.v1")
        switch self {
        case is AttributeDescription: encoder.string("attribute")
        case is RelationshipDescription: encoder.string("relationship")
        default: encoder.string("property")
        }
        encoder.string(name)
        encoder.flag(isOptional)
        encoder.flag(isTransient)
        encoder.optional(versionHashModifier) { $0.string($1) }
        if let attribute = self as? AttributeDescription {
            encoder.string(attribute.attributeType.xcodeName)
        } else if let relationship = self as? RelationshipDescription {
            encoder.string(relationship.destinationEntity?.name ?? relationship.destinationEntityName ?? "")
            encoder.optional(relationship.inverseRelationship?.name ?? relationship.inverseName) { $0.string($1) }
            encoder.flag(relationship.isToMany)
            encoder.flag(relationship.isOrdered)
            encoder.integer(relationship.minCount)
            encoder.integer(relationship.maxCount)
        }
        return encoder.digest
    }
}

// MARK: - Model

extension ManagedObjectModel {
    /// Each entity's `versionHash`, keyed by entity name: what a store records to tell
    /// whether it was written with a compatible model.
    public var entityVersionHashesByName: [String: Data] {
        Dictionary(entities.map { ($0.name, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
    }
}

// MARK: - Encoding

/// Writes the length-prefixed fields that version hashes are computed over.
private struct VersionHashEncoder {
    private var hasher = SHA256()

    init(tag: String) {
        string(tag)
    }

    mutating func bytes<Bytes: Collection>(_ value: Bytes) where Bytes.Element == UInt8 {
        let count = UInt32(truncatingIfNeeded: value.count)
        hasher.update([UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)])
        hasher.update(value)
    }

    mutating func string(_ value: String) { bytes(Array(value.utf8)) }
    mutating func flag(_ value: Bool) { string(value ? "1" : "0") }
    mutating func integer(_ value: Int) { string(String(value)) }

    /// A presence flag, then the value when there is one.
    mutating func optional<Value>(_ value: Value?, _ write: (inout VersionHashEncoder, Value) -> Void) {
        flag(value != nil)
        if let value { write(&self, value) }
    }

    var digest: Data {
        var copy = hasher
        return copy.finalize()
    }
}
