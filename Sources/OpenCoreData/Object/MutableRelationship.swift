import Foundation

/// A live, editable set view of a to-many relationship, as returned by
/// `mutableSetValue(forKey:)`. Every edit updates the inverse relationship.
public struct MutableRelationshipSet {
    let owner: ManagedObject
    let slot: Int
    let relationship: RelationshipDescription

    /// The related objects now.
    public var objects: Set<ManagedObject> { owner.value(atSlot: slot) as? Set<ManagedObject> ?? Set((owner.value(atSlot: slot) as? [ManagedObject]) ?? []) }
    public var count: Int { owner.relatedObjectIDs(atSlot: slot).count }
    public func contains(_ object: ManagedObject) -> Bool { owner.relatedObjectIDs(atSlot: slot).contains(object.objectID) }

    public func add(_ object: ManagedObject) { owner.addRelated(object, atSlot: slot, relationship) }
    public func remove(_ object: ManagedObject) { owner.removeRelated(object, atSlot: slot, relationship) }
    public func union(_ objects: some Sequence<ManagedObject>) { for object in objects { add(object) } }
    public func removeAll() {
        for id in owner.relatedObjectIDs(atSlot: slot).ordered {
            if let object = owner.context?.object(with: id) { remove(object) }
        }
    }
}

/// A live, editable ordered view of an ordered to-many relationship, as returned by
/// `mutableOrderedSetValue(forKey:)`. Every edit updates the inverse relationship.
public struct MutableOrderedRelationship {
    let owner: ManagedObject
    let slot: Int
    let relationship: RelationshipDescription

    /// The related objects now, in order.
    public var objects: [ManagedObject] {
        owner.relatedObjectIDs(atSlot: slot).ordered.compactMap { owner.context?.object(with: $0) }
    }
    public var count: Int { owner.relatedObjectIDs(atSlot: slot).count }
    public subscript(index: Int) -> ManagedObject { objects[index] }

    public func append(_ object: ManagedObject) { owner.addRelated(object, atSlot: slot, relationship) }
    public func insert(_ object: ManagedObject, at index: Int) {
        owner.addRelated(object, atSlot: slot, relationship, at: index)
        move(object, to: index)
    }
    public func remove(_ object: ManagedObject) { owner.removeRelated(object, atSlot: slot, relationship) }
    public func remove(at index: Int) { remove(objects[index]) }
    /// Moves an object already in the relationship to `index`.
    public func move(_ object: ManagedObject, to index: Int) {
        var ids = owner.relatedObjectIDs(atSlot: slot)
        ids.move(object.objectID, to: index)
        owner.reorder(atSlot: slot, to: ids.ordered)
    }
}
