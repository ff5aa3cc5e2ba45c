import Foundation

extension ManagedObjectContext {
    // MARK: - Several stores

    /// Chooses the store a newly inserted object is saved to (Core Data's
    /// `assign(_:to:)`). Needed only when the configurations of several stores hold the
    /// object's entity: otherwise the object goes to the first store holding its entity.
    ///
    /// Unlike Core Data, the object gets a permanent ID of `store` at once (as with
    /// `obtainPermanentIDs(for:)`): the ID is what routes it when it is saved.
    ///
    /// - Throws: `.storeOperationFailed` when the object is not a new object of this
    ///   context (or already has an ID of another store), when `store` is not one of the
    ///   coordinator's, or when its configuration does not hold the object's entity.
    public func assign(_ object: ManagedObject, to store: PersistentStore) throws {
        checkQueue()
        guard object.context === self, object.isPendingInsert else {
            throw CoreDataError(.storeOperationFailed, "assign(_:to:) needs an object inserted into this context and not yet saved.", objectID: object.objectID)
        }
        guard store.holds(object.entity) else {
            throw CoreDataError(.storeOperationFailed, "\(store) does not hold entity '\(object.entity.name)': its configuration leaves it out.", objectID: object.objectID)
        }
        guard object.objectID.isTemporaryID else {
            if object.objectID.store == store.backend.storeNumber { return }
            throw CoreDataError(.storeOperationFailed, "\(object.objectID) already has a permanent ID of another store; assign a new object before obtaining its permanent ID.", objectID: object.objectID)
        }
        adoptPermanentIDs(try parentStore.obtainPermanentIDs(for: [object.objectID], in: store), for: [object])
    }

    /// Core Data's `NSManagedObjectExternalRelationshipError` for every pending object
    /// whose changed relationships reach an object of another store (or of a store the
    /// parent store does not have): relationships cannot cross stores. Checked with the
    /// other validation errors, before anything is written, under one view of the stores.
    func externalRelationshipErrors(_ changes: PendingChanges) -> [CoreDataError] {
        parentStore.withStoreOf { storeOf in
            var errors: [CoreDataError] = []
            func check(_ object: ManagedObject, slots: some Sequence<Int>) {
                let home = storeOf(object.objectID)
                for slot in slots {
                    guard let relationship = object.slots.relationships[slot] else { continue }
                    let outsider: ManagedObjectID?
                    if relationship.isToMany {
                        outsider = object.toMany[slot]?.ordered.first { storeOf($0) !== home }
                    } else {
                        outsider = object.values[slot].objectID.flatMap { storeOf($0) !== home ? $0 : nil }
                    }
                    guard let outsider else { continue }
                    let place = storeOf(outsider).map { "\($0)" } ?? "a store this coordinator does not have"
                    errors.append(CoreDataError(.externalRelationship,
                        "\(object.entity.name).\(relationship.name) of \(object.objectID) (in \(home.map { "\($0)" } ?? "no store")) relates to \(outsider) in \(place): relationships cannot cross persistent stores.",
                        objectID: object.objectID, key: relationship.name))
                }
            }
            for object in changes.inserted {
                check(object, slots: object.slots.toOneSlots)
                check(object, slots: object.slots.toManySlots)
            }
            for object in changes.updated { check(object, slots: object.changedSlots) }
            return errors
        }
    }

    /// After a save that committed to some stores only: their objects become saved, as
    /// after a full save (did-save notifications and merges included); the objects of the
    /// other stores keep their changes.
    func didSaveIncompletely(_ incomplete: IncompleteSave, _ changes: PendingChanges, refersToObjects: Bool) {
        let committedInserts = Set(incomplete.permanentIDs.temporary)
        let saved = changes.filter { committedInserts.contains($0.objectID) || incomplete.savedIDs.contains($0.objectID) }
        let changedKeys = changedKeysForSaveObservers(saved)
        didSave(saved, permanentIDs: incomplete.permanentIDs, refersToObjects: refersToObjects)
        // What the committed stores hold now is a save others must see.
        saveDidEnd(saved, changedKeys: changedKeys)
    }
}
