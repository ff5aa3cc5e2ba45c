import Foundation

extension ManagedObjectContext {
    /// Writes every insert, change and delete to the store, in one transaction.
    ///
    /// Delete rules run first, then `willSave`, then every object is validated and all
    /// failures are reported together (a relationship to an object of another store is
    /// `.externalRelationship`). Only then is the store written. On any failure the
    /// store is exactly as before, objects keep their temporary IDs, and the context
    /// keeps its changes to fix and retry.
    ///
    /// With several stores, each object is written to its own store, one transaction
    /// per store, in the order the stores were added. SQLite cannot commit several files
    /// atomically: if a store fails after earlier ones committed, their commits stay and
    /// the save throws `.storeIncompleteSave` naming them; the objects of the committed
    /// stores are then saved (permanent IDs, no changes) and the others keep their
    /// changes, so fixing the cause and saving again writes only those. A failure in
    /// the first store written leaves every store as it was.
    ///
    /// Every change is based on the version of each row the context read: when another
    /// context, process or batch request has changed or deleted one of those rows since,
    /// nothing is written and the save throws `.mergeConflict`, with one `MergeConflict`
    /// per such object in `conflicts`. Refresh the objects (`refresh(_:mergeChanges:)`)
    /// or roll back, then retry.
    ///
    /// - Throws: a validation error (`.validationMultipleErrors` for several),
    ///   `.mergeConflict`, `.constraintViolation`, `.storeIncompleteSave`, or a store error.
    public func save() throws {
        processPendingChanges()
        guard hasChanges else { return }
        for objects in [inserted, updated, deleted] {
            for object in objects { object.willSave() }
        }
        processPendingChanges()
        try validatePendingChanges()
        let (request, insertedObjects) = makeSaveRequest()
        let permanentIDs: PermanentIDs
        do {
            permanentIDs = try coordinator.save(request)
        } catch let store as StoreConflicts {
            throw mergeConflictError(store.conflicts)
        } catch var incomplete as IncompleteSave {
            didSaveIncompletely(incomplete, insertedObjects: insertedObjects, refersToObjects: request.refersToObjects)
            if !incomplete.conflicts.isEmpty {
                let conflict = mergeConflictError(incomplete.conflicts)
                incomplete.error.underlyingErrors = [conflict]
                incomplete.error.conflicts = conflict.conflicts
            }
            throw incomplete.error
        }
        didSave(insertedObjects, permanentIDs: permanentIDs, refersToObjects: request.refersToObjects)
    }

    private func validatePendingChanges() throws {
        var errors: [CoreDataError] = []
        func collect(_ check: () throws -> Void) {
            do { try check() } catch let error as CoreDataError { errors.append(error) } catch {
                errors.append(CoreDataError(.validationGeneric, "\(error)"))
            }
        }
        for object in inserted { collect(object.validateForInsert) }
        for object in updated { collect(object.validateForUpdate) }
        for object in deleted { collect(object.validateForDelete) }
        errors += unreadRelationshipErrors()
        errors += externalRelationshipErrors()
        try CoreDataError.throwCombined(errors)
    }

    /// The request, and the inserted objects in the order of its `inserts`.
    private func makeSaveRequest() -> (SaveRequest, [ManagedObject]) {
        var request = SaveRequest()
        // In insertion order, so primary keys follow the order objects were inserted in.
        var order = insertionOrder.filter { $0.isPendingInsert && $0.context === self }
        if order.count != inserted.count {
            // An object was inserted, deleted and inserted again: keep its first place only.
            var seen = Set<ObjectIdentifier>()
            order = order.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        request.inserts.reserveCapacity(order.count)
        for object in order {
            request.inserts.append(row(for: object, allSlots: true))
            appendToManyChanges(of: object, into: &request, all: true)
        }
        for object in updated {
            request.updates.append(row(for: object, allSlots: false))
            appendToManyChanges(of: object, into: &request, all: false)
        }
        request.deletes = deleted.map { SaveRequest.Deletion(id: $0.objectID, version: $0.committed?.version ?? 0) }
        request.refersToObjects = !request.toManyChanges.isEmpty
            || order.contains { !$0.slots.toOneSlots.isEmpty }
            || updated.contains { !$0.slots.toOneSlots.isEmpty }
        return (request, order)
    }

    private func row(for object: ManagedObject, allSlots: Bool) -> SaveRequest.Row {
        let slots = object.entity.slots
        let stored = allSlots ? slots.storedSlotSet : object.changedSlots.intersection(slots.storedSlotSet)
        return SaveRequest.Row(id: object.objectID, values: object.values, changedSlots: stored, version: object.committed?.version ?? 0)
    }

    private func appendToManyChanges(of object: ManagedObject, into request: inout SaveRequest, all: Bool) {
        for slot in object.entity.slots.toManySlots where all || object.changedSlots.contains(slot) {
            let relationship = object.entity.slots.relationships[slot]!
            guard relationship.isStoredAsToManyChange, let members = object.toMany[slot] else { continue }
            request.toManyChanges.append(.init(owner: object.objectID, relationship: relationship, members: members.ordered))
        }
    }

    /// After a successful write: permanent IDs, new committed values, clean state.
    func didSave(_ insertedObjects: [ManagedObject], permanentIDs: PermanentIDs, refersToObjects: Bool) {
        for (object, permanent) in zip(insertedObjects, permanentIDs.permanent) where object.objectID != permanent {
            rekey(object, to: permanent)
        }
        let updatedObjects = Array(updated)
        if refersToObjects {
            remapRelationships(in: insertedObjects, permanentIDs)
            remapRelationships(in: updatedObjects, permanentIDs)
        }
        for object in insertedObjects {
            object.committed = RowSnapshot(values: object.values, version: 1)
            object.changedSlots.removeAll()
            object.extras?.toManyBase.removeAll()
            object.isPendingInsert = false
        }
        for object in updatedObjects {
            object.committed = RowSnapshot(values: object.values, version: (object.committed?.version ?? 0) + 1)
            object.changedSlots.removeAll()
            object.extras?.toManyBase.removeAll()
        }
        let deletedObjects = deleted
        for object in deletedObjects {
            unregister(object.objectID)
            object.isPendingDelete = false
            object.context = nil
        }
        inserted.removeAll()
        insertionOrder.removeAll()
        updated.removeAll()
        deleted.removeAll()
        for object in insertedObjects { object.didSave() }
        for object in updatedObjects { object.didSave() }
        for object in deletedObjects { object.didSave() }
    }

    /// Gives a registered object a new ID (temporary → permanent).
    private func rekey(_ object: ManagedObject, to permanent: ManagedObjectID) {
        if let reference = registry.removeValue(forKey: object.objectID) { registry[permanent] = reference }
        object.objectID = permanent
    }

    /// Replaces temporary IDs in the relationship values of `objects`.
    private func remapRelationships(in objects: [ManagedObject], _ ids: PermanentIDs) {
        for object in objects where !object.faulted {
            for slot in object.slots.toOneSlots {
                if let id = object.values[slot].objectID, let permanent = ids[id] { object.values[slot] = .object(permanent) }
            }
            for slot in object.toMany.keys { object.toMany[slot]!.remap(ids) }
        }
    }

    /// Gives `objects` permanent IDs now, before they are saved (so their IDs can be
    /// handed to other contexts).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        let needing = objects.filter { $0.objectID.isTemporaryID }
        guard !needing.isEmpty else { return }
        adoptPermanentIDs(try coordinator.obtainPermanentIDs(for: needing.map(\.objectID)), for: needing)
    }

    /// Gives `needing` (objects with temporary IDs) their permanent IDs from `map`, and
    /// updates the relationships that refer to them.
    func adoptPermanentIDs(_ map: [ManagedObjectID: ManagedObjectID], for needing: [ManagedObject]) {
        let temporary = needing.map(\.objectID)
        let ids = PermanentIDs(temporary: temporary, permanent: temporary.map { map[$0] ?? $0 }, needsLookup: true)
        for (object, permanent) in zip(needing, ids.permanent) { rekey(object, to: permanent) }
        remapRelationships(in: Array(inserted) + Array(updated), ids)
    }
}
