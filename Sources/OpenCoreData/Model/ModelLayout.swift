import Foundation

/// The frozen shape of a model: entity numbers (`Z_ENT`) and, per entity, the slot each
/// property's value occupies in an object's storage. Computed once by `freeze()` so that
/// reading a value is an array access, not a lookup by name.
package final class ModelLayout: @unchecked Sendable {
    // @unchecked Sendable: built once in `init` and never mutated.
    package let entitiesByNumber: [Int: EntityDescription]
    package let entitiesByName: [String: EntityDescription]
    /// The `ManagedObject` classes bound to the entities, resolved once each.
    let classBindings = ClassBindings()
    /// The serials of this layout's entities (`EntitySlots.serial`), in entity-number
    /// order: an object ID belongs to this model when its entity serial is one of them.
    package let serials: Range<UInt32>

    /// Builds the layout and registers its entities in `EntityRegistry`, which keeps them
    /// and the layout (their slots reach it unowned) for the life of the process: object
    /// IDs find their entity through it.
    init(model: ManagedObjectModel) throws {
        var byNumber: [Int: EntityDescription] = [:]
        let sorted = model.entities.sorted { $0.name < $1.name }
        for (offset, entity) in sorted.enumerated() {
            byNumber[offset + 1] = entity
        }
        entitiesByNumber = byNumber
        entitiesByName = model.entitiesByName
        serials = EntityRegistry.register(sorted)
        _ = Unmanaged.passRetained(self)
        for (offset, entity) in sorted.enumerated() {
            entity.frozenSlots = EntitySlots(entity: entity, number: offset + 1, serial: serials.lowerBound + UInt32(offset), layout: self)
        }
    }

    /// Whether `id` names an object of this model (not of another model's entity).
    @inline(__always)
    package func holds(_ id: ManagedObjectID) -> Bool {
        serials.contains(id.entitySerial)
    }
}

/// Where each property of one entity lives in an object's storage.
@usableFromInline
package final class EntitySlots: @unchecked Sendable {
    // @unchecked Sendable: built once in `init` and never mutated.
    /// The entity's number, stored in `Z_ENT` and `Z_PRIMARYKEY`.
    package let number: Int
    /// A number unique to this entity of this layout in the process (never 0, never
    /// reused): identifies the (entity, layout) pair in caches and object IDs without a
    /// reference (`EntityRegistry` maps it back to the entity).
    @usableFromInline package let serial: UInt32
    /// The model's layout, which owns the entity (not retained: it owns us through it).
    package unowned(unsafe) let layout: ModelLayout
    /// Every property, inherited first; the index is the property's slot.
    package let properties: [PropertyDescription]

    /// The names of the properties in `slots` (an object's changed keys, say).
    func propertyNames(in slots: SlotSet) -> Set<String> {
        Set(slots.map { names[$0] })
    }
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
    /// Attribute types per slot (nil for relationships): read on every typed write and
    /// every bind without going through the attribute (a class, whose `var`s cost a
    /// dynamic exclusivity check per read).
    package let attributeTypes: [AttributeType?]
    /// Relationships per slot (nil for attributes).
    package let relationships: [RelationshipDescription?]
    /// The values a newly inserted object starts with (attribute defaults).
    let defaultValues: SlotValues
    /// Per slot: attributes whose every value needs the full validation at save (range,
    /// length or pattern rules, or opaque transformable values).
    package let alwaysValidated: [Bool]
    /// The slots of `alwaysValidated` attributes.
    let alwaysValidatedSlots: [Int]
    /// The slots of attributes that must have a value.
    let mandatoryAttributeSlots: [Int]
    /// Attribute slots whose default value needs a full check (wrong type, NaN).
    let defaultsToValidate: SlotSet
    /// Per slot: whether the value is stored (not transient, not to-many).
    package let isStored: [Bool]
    /// The stored slots, in order.
    package let storedSlots: [Int]
    /// The stored slots as a set, to filter changed slots with one mask.
    let storedSlotSet: SlotSet
    /// The slots whose values are never stored (transient attributes, to-many).
    package let unstoredSlots: [Int]

    /// The slot of a property name. Small entities are scanned in order: comparing
    /// short strings is cheaper than hashing one.
    @inline(__always)
    package func slot(forKey key: String) -> Int? {
        if names.count <= 16 { return names.firstIndex(of: key) }
        return slotByName[key]
    }

    init(entity: EntityDescription, number: Int, serial: UInt32, layout: ModelLayout) {
        self.number = number
        self.layout = layout
        self.serial = serial
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
        attributeTypes = attributes.map { $0?.attributeType }
        self.relationships = relationships
        defaultValues = SlotValues(attributes.map { SlotValue($0.flatMap { $0.canonicalValue($0.defaultValue) }) })
        let alwaysValidated = attributes.map { attribute in
            guard let attribute else { return false }
            return attribute.minValue != nil || attribute.maxValue != nil || attribute.minLength != nil
                || attribute.maxLength != nil || attribute.regularExpression != nil
                || attribute.attributeType.canonicalSwiftType == nil
        }
        self.alwaysValidated = alwaysValidated
        alwaysValidatedSlots = alwaysValidated.indices.filter { alwaysValidated[$0] }
        mandatoryAttributeSlots = attributeSlots.filter { attributes[$0]?.isOptional == false }
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
        storedSlotSet = SlotSet(storedSlots)
        unstoredSlots = isStored.indices.filter { !isStored[$0] }
    }
}
