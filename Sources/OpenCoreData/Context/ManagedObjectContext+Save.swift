import Foundation

extension ManagedObjectContext {
    /// Writes every insert, change and delete to the store, in one transaction.
    ///
    /// Delete rules run first, then `willSave`, then every object is validated and all
    /// failures are reported together. Only then is the store written. On any failure
    /// the store is exactly as before, objects keep their temporary IDs, and the
    /// context keeps its changes to fix and retry.
    ///
    /// - Throws: a validation error (`.validationMultipleErrors` for several),
    ///   `.constraintViolation`, or a store error.
    public func save() throws {
        processPendingChanges()
        guard hasChanges else { return }
        for objects in [inserted, updated, deleted] {
            for object in objects { object.willSave() }
        }
        processPendingChanges()
        try validatePendingChanges()
        let request = makeSaveRequest()
        let permanentIDs = try coordinator.save(request)
        didSave(request, permanentIDs: permanentIDs)
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
        try CoreDataError.throwCombined(errors)
    }

    private func makeSaveRequest() -> SaveRequest {
        var request = SaveRequest()
        // In insertion order, so primary keys follow the order objects were inserted in.
        var order = insertionOrder.filter { $0.isPendingInsert && $0.context === self }
        if order.count != inserted.count {
            // An object was inserted, deleted and inserted again: keep its first place only.
            var seen = Set<ObjectIdentifier>()
            order = order.filter { seen.insert(ObjectIdentifier($0)).inserted }
        }
        for object in order {
            request.inserts.append(row(for: object, allSlots: true))
            appendToManyChanges(of: object, into: &request, all: true)
        }
        for object in updated {
            request.updates.append(row(for: object, allSlots: false))
            appendToManyChanges(of: object, into: &request, all: false)
        }
        request.deletes = deleted.map(\.objectID)
        return request
    }

    private func row(for object: ManagedObject, allSlots: Bool) -> SaveRequest.Row {
        let slots = object.entity.slots
        let stored = allSlots ? slots.storedSlots : object.changedSlots.filter { slots.isStored[$0] }
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
    private func didSave(_ request: SaveRequest, permanentIDs: [ManagedObjectID: ManagedObjectID]) {
        let saved = Array(inserted) + Array(updated)
        adoptPermanentIDs(permanentIDs, in: saved)
        for object in saved {
            let version = object.isPendingInsert ? 1 : (object.committed?.version ?? 0) + 1
            object.committed = RowSnapshot(values: object.values, version: version)
            object.changedSlots.removeAll()
            object.isPendingInsert = false
        }
        for object in deleted {
            unregister(object.objectID)
            object.isPendingDelete = false
            object.context = nil
        }
        let deletedObjects = deleted
        inserted.removeAll()
        insertionOrder.removeAll()
        updated.removeAll()
        deleted.removeAll()
        for object in saved { object.didSave() }
        for object in deletedObjects { object.didSave() }
    }

    /// Replaces temporary IDs by permanent ones: in the registry, on the objects, and in
    /// the relationship values of `objects` that may point at them.
    func adoptPermanentIDs(_ map: [ManagedObjectID: ManagedObjectID], in objects: [ManagedObject]) {
        guard !map.isEmpty else { return }
        for (temporary, permanent) in map {
            guard let reference = registry.removeValue(forKey: temporary) else { continue }
            reference.takeUnretainedValue().objectID = permanent
            registry[permanent] = reference
        }
        for object in objects where !object.faulted {
            for slot in object.entity.slots.toOneSlots {
                if let id = object.values[slot] as? ManagedObjectID, let permanent = map[id] { object.values[slot] = permanent }
            }
            for slot in object.toMany.keys { object.toMany[slot]!.remap(map) }
        }
    }

    /// Gives `objects` permanent IDs now, before they are saved (so their IDs can be
    /// handed to other contexts).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        let temporary = objects.filter { $0.objectID.isTemporaryID }.map(\.objectID)
        guard !temporary.isEmpty else { return }
        let map = try coordinator.obtainPermanentIDs(for: temporary)
        adoptPermanentIDs(map, in: Array(inserted) + Array(updated))
    }
}
