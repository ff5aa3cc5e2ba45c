import Foundation

extension ManagedObject {
    // MARK: - Reading relationships

    /// The IDs in a to-many relationship, loading them from the store the first time.
    func relatedObjectIDs(atSlot slot: Int) -> RelatedObjects {
        willAccessValues()
        if let loaded = toMany[slot] { return loaded }
        var loaded = RelatedObjects()
        if hasStoredState, let context, let relationship = slots!.relationships[slot] {
            loaded = RelatedObjects(context.loadRelatedIDs(of: self, relationship: relationship, slot: slot))
        }
        toMany[slot] = loaded
        return loaded
    }

    /// The ID a to-one relationship points at.
    func toOneID(atSlot slot: Int) -> ManagedObjectID? {
        willAccessValues()
        return values[slot].objectID
    }

    // MARK: - Setting with inverse maintenance

    /// Sets a relationship from a value given by key. A value of the wrong type (a
    /// string for a to-one, an array of strings for a to-many) or an object of another
    /// entity is kept as given, changes nothing else, and fails `save()` with
    /// `.validationWrongType`, as a wrong attribute value does.
    func setRelationship(_ value: Any?, atSlot slot: Int, _ relationship: RelationshipDescription) {
        willAccessValues()
        if relationship.isToMany {
            guard let objects = Self.relatedObjects(in: value), objects.allSatisfy({ fits($0, relationship) }) else {
                return keepInvalid(value, atSlot: slot)
            }
            if !values[slot].isNull {
                willChange()
                values[slot] = .null
            }
            replaceToMany(atSlot: slot, relationship, with: objects)
        } else {
            guard value == nil || (value as? ManagedObject).map({ fits($0, relationship) }) == true else {
                setToOne(nil, atSlot: slot, relationship)
                return keepInvalid(value, atSlot: slot)
            }
            if !values[slot].isNull, values[slot].objectID == nil {
                willChange()
                values[slot] = .null
            }
            setToOne(value as? ManagedObject, atSlot: slot, relationship)
        }
    }

    /// The objects of a to-many value: nil, or a set or array of managed objects.
    static func relatedObjects(in value: Any?) -> [ManagedObject]? {
        switch value {
        case nil: return []
        case let set as Set<ManagedObject>: return Array(set)
        case let array as [ManagedObject]: return array
        default: return nil
        }
    }

    /// Whether `object` is of the relationship's destination entity.
    private func fits(_ object: ManagedObject, _ relationship: RelationshipDescription) -> Bool {
        relationship.destinationEntity.map { object.entity.isKindOf(entity: $0) } ?? true
    }

    /// Keeps a value a relationship cannot hold in its slot, for `save()` to report.
    private func keepInvalid(_ value: Any?, atSlot slot: Int) {
        willChange()
        values[slot] = SlotValue(value)
        changedSlots.insert(slot)
    }

    func setToOne(_ newObject: ManagedObject?, atSlot slot: Int, _ relationship: RelationshipDescription) {
        if let newObject { checkRelatable(newObject, relationship) }
        let oldID = toOneID(atSlot: slot)
        guard oldID != newObject?.objectID else { return }
        primitiveSetToOne(newObject?.objectID, atSlot: slot)
        guard let inverse = relationship.inverseRelationship else { return }
        if let oldID, let old = context?.object(with: oldID) {
            old.primitiveUnlink(self, via: inverse)
        }
        if let newObject { newObject.link(self, via: inverse, inverseOf: relationship) }
    }

    func replaceToMany(atSlot slot: Int, _ relationship: RelationshipDescription, with objects: [ManagedObject]) {
        let current = relatedObjectIDs(atSlot: slot)
        let wanted = Set(objects.map(\.objectID))
        for id in current.ordered where !wanted.contains(id) {
            if let object = context?.object(with: id) { removeRelated(object, atSlot: slot, relationship) }
        }
        for (index, object) in objects.enumerated() {
            addRelated(object, atSlot: slot, relationship, at: relationship.isOrdered ? index : nil)
        }
        if relationship.isOrdered { reorder(atSlot: slot, to: objects.map(\.objectID)) }
    }

    /// Adds `object` to the to-many relationship in `slot` and updates the inverse.
    func addRelated(_ object: ManagedObject, atSlot slot: Int, _ relationship: RelationshipDescription, at index: Int? = nil) {
        checkRelatable(object, relationship)
        guard !relatedObjectIDs(atSlot: slot).contains(object.objectID) else { return }
        willChangeToMany(atSlot: slot)
        toMany[slot]!.insert(object.objectID, at: index)
        changedSlots.insert(slot)
        if let inverse = relationship.inverseRelationship {
            object.link(self, via: inverse, inverseOf: relationship)
        }
    }

    /// Removes `object` from the to-many relationship in `slot` and updates the inverse.
    func removeRelated(_ object: ManagedObject, atSlot slot: Int, _ relationship: RelationshipDescription) {
        guard relatedObjectIDs(atSlot: slot).contains(object.objectID) else { return }
        willChangeToMany(atSlot: slot)
        toMany[slot]!.remove(object.objectID)
        changedSlots.insert(slot)
        if let inverse = relationship.inverseRelationship { object.primitiveUnlink(self, via: inverse) }
    }

    func reorder(atSlot slot: Int, to order: [ManagedObjectID]) {
        guard relatedObjectIDs(atSlot: slot).ordered != order else { return }
        willChangeToMany(atSlot: slot)
        toMany[slot] = RelatedObjects(order)
        changedSlots.insert(slot)
    }

    // MARK: - One side only (the inverse half of a change)

    /// Makes `self.inverse` include `other`, detaching `self` from its previous
    /// partner when `inverse` is to-one (so the other side of that link stays consistent).
    func link(_ other: ManagedObject, via inverse: RelationshipDescription, inverseOf relationship: RelationshipDescription) {
        let slot = self.slot(forKey: inverse.name)
        if inverse.isToMany {
            guard !relatedObjectIDs(atSlot: slot).contains(other.objectID) else { return }
            willChangeToMany(atSlot: slot)
            toMany[slot]!.insert(other.objectID)
            changedSlots.insert(slot)
        } else {
            let previousID = toOneID(atSlot: slot)
            guard previousID != other.objectID else { return }
            if let previousID, let previous = context?.object(with: previousID) {
                previous.primitiveUnlink(self, via: relationship)
            }
            primitiveSetToOne(other.objectID, atSlot: slot)
        }
    }

    /// Removes `other` from `self.inverse` without touching `other`.
    func primitiveUnlink(_ other: ManagedObject, via inverse: RelationshipDescription) {
        let slot = self.slot(forKey: inverse.name)
        if inverse.isToMany {
            guard relatedObjectIDs(atSlot: slot).contains(other.objectID) else { return }
            willChangeToMany(atSlot: slot)
            toMany[slot]!.remove(other.objectID)
            changedSlots.insert(slot)
        } else if toOneID(atSlot: slot) == other.objectID {
            primitiveSetToOne(nil, atSlot: slot)
        }
    }

    /// Keeps the members a to-many relationship had when read, before its first change
    /// (a new object's have none to keep).
    func willChangeToMany(atSlot slot: Int) {
        willChange()
        if !isPendingInsert, toManyBase[slot] == nil { toManyBase[slot] = toMany[slot] ?? RelatedObjects() }
    }

    func primitiveSetToOne(_ id: ManagedObjectID?, atSlot slot: Int) {
        willAccessValues()
        willChange()
        values[slot] = id.map(SlotValue.object) ?? .null
        changedSlots.insert(slot)
    }

    private func checkRelatable(_ object: ManagedObject, _ relationship: RelationshipDescription) {
        precondition(object.context === context, "ManagedObject: cannot relate objects from different contexts ('\(entity.name).\(relationship.name)' → \(object.entity.name)). Fetch the object in this context with object(with: objectID) first.")
        if let destination = relationship.destinationEntity {
            precondition(object.entity.isKindOf(entity: destination), "ManagedObject: '\(entity.name).\(relationship.name)' holds \(destination.name) objects, not \(object.entity.name).")
        }
    }

    // MARK: - Mutable proxies

    /// A live, editable view of a to-many relationship; edits maintain inverses.
    public func mutableSetValue(forKey key: String) -> MutableRelationshipSet {
        let slot = slot(forKey: key)
        guard let relationship = slots!.relationships[slot], relationship.isToMany else {
            preconditionFailure("ManagedObject: '\(entity.name).\(key)' is not a to-many relationship.")
        }
        return MutableRelationshipSet(owner: self, slot: slot, relationship: relationship)
    }

    /// A live, editable, ordered view of an ordered to-many relationship.
    public func mutableOrderedSetValue(forKey key: String) -> MutableOrderedRelationship {
        let slot = slot(forKey: key)
        guard let relationship = slots!.relationships[slot], relationship.isToMany else {
            preconditionFailure("ManagedObject: '\(entity.name).\(key)' is not a to-many relationship.")
        }
        return MutableOrderedRelationship(owner: self, slot: slot, relationship: relationship)
    }
}
