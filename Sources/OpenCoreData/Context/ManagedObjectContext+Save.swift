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
    /// or roll back, then retry — or set a `mergePolicy` that resolves conflicts (and
    /// uniqueness constraint clashes) and saves again by itself.
    ///
    /// - Throws: a validation error (`.validationMultipleErrors` for several),
    ///   `.mergeConflict`, `.constraintViolation`, `.storeIncompleteSave`, or a store error.
    public func save() throws {
        checkQueue()
        processPendingChanges()
        guard hasChanges else { return }
        saveWillBegin()
        for object in pendingObjects where willBeSaved(object) { object.willSave() }
        processPendingChanges()
        try resolvingConflicts(writePendingChanges)
    }

    /// One attempt at writing the pending changes. Rows in conflict come out as
    /// `StoreConflicts`, for `resolvingConflicts` to hand to the merge policy.
    private func writePendingChanges() throws {
        let changes = PendingChanges(self)
        try validate(changes)
        let request = makeSaveRequest(changes)
        let permanentIDs: PermanentIDs
        do {
            permanentIDs = try parentStore.save(request)
        } catch var incomplete as IncompleteSave {
            didSaveIncompletely(incomplete, changes, refersToObjects: request.refersToObjects)
            if !incomplete.conflicts.isEmpty {
                let conflict = mergeConflictError(incomplete.conflicts)
                incomplete.error.underlyingErrors = [conflict]
                incomplete.error.conflicts = conflict.conflicts
            }
            throw incomplete.error
        }
        let changedKeys = changedKeysForSaveObservers(changes)
        didSave(changes, permanentIDs: permanentIDs, refersToObjects: request.refersToObjects)
        didPushInserts(changes.inserted)
        saveDidEnd(changes, changedKeys: changedKeys)
    }

    private func validate(_ changes: PendingChanges) throws {
        var errors: [CoreDataError] = []
        func collect(_ check: () throws -> Void) {
            do { try check() } catch let error as CoreDataError { errors.append(error) } catch {
                errors.append(CoreDataError(.validationGeneric, "\(error)"))
            }
        }
        for object in changes.inserted { collect(object.validateForInsert) }
        // An object whose row was gone when it was read has no values to check: its
        // save meets the missing row as a conflict, for the merge policy to settle.
        for object in changes.updated where !object.isInaccessible { collect(object.validateForUpdate) }
        for object in changes.deleted { collect(object.validateForDelete) }
        errors += unreadRelationshipErrors()
        errors += externalRelationshipErrors(changes)
        try CoreDataError.throwCombined(errors)
    }

    /// The request for `changes` (inserts in insertion order, so primary keys follow it).
    private func makeSaveRequest(_ changes: PendingChanges) -> SaveRequest {
        var request = SaveRequest()
        request.inserts.reserveCapacity(changes.inserted.count)
        for object in changes.inserted {
            request.inserts.append(row(for: object, allSlots: true))
            appendToManyChanges(of: object, into: &request, all: true)
        }
        for object in changes.updated {
            request.updates.append(row(for: object, allSlots: false))
            appendToManyChanges(of: object, into: &request, all: false)
        }
        request.deletes = changes.deleted.map { SaveRequest.Deletion(id: $0.objectID, version: $0.committed?.version ?? 0) }
        request.origin = transactionOrigin
        request.refersToObjects = !request.toManyChanges.isEmpty
            || changes.inserted.contains { !$0.slots.toOneSlots.isEmpty }
            || changes.updated.contains { !$0.slots.toOneSlots.isEmpty }
        return request
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

    /// After a successful write of `changes`: permanent IDs, new committed values, clean
    /// state.
    func didSave(_ changes: PendingChanges, permanentIDs: PermanentIDs, refersToObjects: Bool) {
        undoState?.noteSaved(temporary: permanentIDs.temporary, permanent: permanentIDs.permanent)
        for (object, permanent) in zip(changes.inserted, permanentIDs.permanent) { object.rekey(to: permanent) }
        if refersToObjects {
            for object in changes.inserted { object.remapRelationships(permanentIDs) }
            for object in changes.updated { object.remapRelationships(permanentIDs) }
        }
        for object in changes.inserted { object.didCommit(version: 1) }
        for object in changes.updated {
            let version = (object.committed?.version ?? 0) + 1
            object.didCommit(version: version)
            if nested.hasChildren { nested.didSave(object.objectID, base: version) }
        }
        for object in changes.deleted + changes.discarded { object.didCommitDeletion() }
        compactPendingObjects()
        for object in changes.inserted { object.didSave() }
        for object in changes.updated { object.didSave() }
        for object in changes.deleted { object.didSave() }
        if !permanentIDConsumers.isEmpty { reportPermanentIDs(of: changes.inserted) }
    }

    /// Gives `objects` permanent IDs now, before they are saved (so their IDs can be
    /// handed to other contexts).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkQueue()
        let needing = objects.filter { $0.objectID.isTemporaryID }
        guard !needing.isEmpty else { return }
        adoptPermanentIDs(try parentStore.obtainPermanentIDs(for: needing.map(\.objectID), in: nil), for: needing)
    }

    /// Gives `needing` (objects with temporary IDs) their permanent IDs from `map`, and
    /// updates the relationships that refer to them.
    func adoptPermanentIDs(_ map: [ManagedObjectID: ManagedObjectID], for needing: [ManagedObject]) {
        let temporary = needing.map(\.objectID)
        let ids = PermanentIDs(temporary: temporary, permanent: temporary.map { map[$0] ?? $0 }, needsLookup: true)
        undoState?.noteSaved(temporary: ids.temporary, permanent: ids.permanent)
        for (object, permanent) in zip(needing, ids.permanent) { object.rekey(to: permanent) }
        for object in pendingObjects where object.context === self { object.remapRelationships(ids) }
        if !permanentIDConsumers.isEmpty { reportPermanentIDs(of: needing) }
    }
}
