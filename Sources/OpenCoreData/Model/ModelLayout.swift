import Foundation
import Synchronization

/// The frozen shape of a model: entity numbers (`Z_ENT`) and, per entity, the slot each
/// property's value occupies in an object's storage. Computed once by `freeze()` so that
/// reading a value is an array access, not a lookup by name.
package final class ModelLayout: @unchecked Sendable {
    // @unchecked Sendable: built once in `init` and never mutated.
    package let entitiesByNumber: [Int: EntityDescription]
    package let entitiesByName: [String: EntityDescription]

    init(model: ManagedObjectModel) throws {
        var byNumber: [Int: EntityDescription] = [:]
        let sorted = model.entities.sorted { $0.name < $1.name }
        for (offset, entity) in sorted.enumerated() {
            byNumber[offset + 1] = entity
        }
        entitiesByNumber = byNumber
        entitiesByName = model.entitiesByName
        for (number, entity) in byNumber {
            entity.frozenSlots = EntitySlots(entity: entity, number: number, layout: self)
        }
    }
}

/// Where each property of one entity lives in an object's storage.
@usableFromInline
package final class EntitySlots: @unchecked Sendable {
    // @unchecked Sendable: built once in `init` and never mutated.
    /// The entity's number, stored in `Z_ENT` and `Z_PRIMARYKEY`.
    package let number: Int
    /// A number unique to this entity of this layout in the process (never 0, never
    /// reused): identifies the (entity, layout) pair in caches without a reference.
    @usableFromInline package let serial: UInt32
    /// The model's layout, which owns the entity (not retained: it owns us through it).
    package unowned(unsafe) let layout: ModelLayout
    /// Every property, inherited first; the index is the property's slot.
    package let properties: [PropertyDescription]
    package let slotByName: [String: Int]
    /// Property names by slot, for the linear lookup below.
    private let names: [String]
    /// Slots of attributes (stored and transient).
    package let attributeSlots: [Int]
    /// Slots of to-one relationships.
    package let toOneSlots: [Int]
    /// Slots of to-many relationships.
    package let toManySlots: [Int]
    /// Attributes per slot (nil for relationships), to avoid casts on hot paths.
    package let attributes: [AttributeDescription?]
    /// Relationships per slot (nil for attributes).
    package let relationships: [RelationshipDescription?]
    /// The values a newly inserted object starts with (attribute defaults).
    package let defaultValues: ContiguousArray<Any?>
    /// Per slot: attributes whose every value needs the full validation at save (range,
    /// length or pattern rules, or opaque transformable values).
    package let alwaysValidated: [Bool]
    /// Attribute slots whose default value needs a full check (wrong type, NaN).
    let defaultsToValidate: SlotSet
    /// Per slot: whether the value is stored (not transient, not to-many).
    package let isStored: [Bool]
    /// The stored slots, in order.
    package let storedSlots: [Int]
    /// The slots whose values are never stored (transient attributes, to-many).
    package let unstoredSlots: [Int]

    /// The slot of a property name. Small entities are scanned in order: comparing
    /// short strings is cheaper than hashing one.
    @inline(__always)
    package func slot(forKey key: String) -> Int? {
        if names.count <= 16 { return names.firstIndex(of: key) }
        return slotByName[key]
    }

    private static let serials = Atomic<UInt32>(0)

    init(entity: EntityDescription, number: Int, layout: ModelLayout) {
        self.number = number
        self.layout = layout
        serial = Self.serials.add(1, ordering: .relaxed).newValue
        properties = entity.allProperties
        var byName: [String: Int] = [:]
        var attributeSlots: [Int] = []
        var toOneSlots: [Int] = []
        var toManySlots: [Int] = []
        var attributes: [AttributeDescription?] = []
        var relationships: [RelationshipDescription?] = []
        for (slot, property) in properties.enumerated() {
            byName[property.name] = slot
            let attribute = property as? AttributeDescription
            let relationship = property as? RelationshipDescription
            attributes.append(attribute)
            relationships.append(relationship)
            if attribute != nil { attributeSlots.append(slot) }
            if let relationship { (relationship.isToMany ? { toManySlots.append(slot) } : { toOneSlots.append(slot) })() }
        }
        slotByName = byName
        names = properties.map(\.name)
        self.attributeSlots = attributeSlots
        self.toOneSlots = toOneSlots
        self.toManySlots = toManySlots
        self.attributes = attributes
        self.relationships = relationships
        defaultValues = ContiguousArray(attributes.map { $0.flatMap { $0.canonicalValue($0.defaultValue) } })
        alwaysValidated = attributes.map { attribute in
            guard let attribute else { return false }
            return attribute.minValue != nil || attribute.maxValue != nil || attribute.minLength != nil
                || attribute.maxLength != nil || attribute.regularExpression != nil
                || attribute.attributeType.canonicalSwiftType == nil
        }
        var nonCanonical = SlotSet()
        for (slot, attribute) in attributes.enumerated() {
            guard let attribute else { continue }
            let (value, isCanonical) = attribute.canonicalize(attribute.defaultValue)
            if !isCanonical || attribute.isNaN(value) { nonCanonical.insert(slot) }
        }
        defaultsToValidate = nonCanonical
        let isStored = properties.map { property in
            if let relationship = property as? RelationshipDescription { return !relationship.isToMany }
            return !property.isTransient
        }
        self.isStored = isStored
        storedSlots = isStored.indices.filter { isStored[$0] }
        unstoredSlots = isStored.indices.filter { !isStored[$0] }
    }
}
