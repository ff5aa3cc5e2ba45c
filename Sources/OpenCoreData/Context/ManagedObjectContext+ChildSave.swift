import Foundation

extension ManagedObjectContext {
    // MARK: - A child's save, received by its parent

    /// Applies a child context's save to this (parent) context, as one event of it: new
    /// objects are inserted here with the child's temporary IDs, changed slots are set
    /// (relationships through their setters, so both sides stay consistent here), and
    /// deleted objects are deleted here, where their delete rules run. Nothing reaches
    /// the store until this context saves.
    ///
    /// Every changed or deleted object must still have the version the child read: when
    /// this context changed it since (or deleted it), nothing is applied and
    /// `StoreConflicts` is thrown, as a store throws for rows changed since they were
    /// read, for the child's save to resolve or report.
    ///
    /// - Returns: the child's IDs for its inserts, unchanged (Core Data keeps temporary
    ///   IDs across a child's save until the root context saves).
    func receiveChildSave(_ request: SaveRequest) throws -> PermanentIDs {
        prepareToAnswerChild()
        let updated = try objectsForChildSave(request)
        let insertIDs = request.inserts.map(\.id)
        var inserted: [ManagedObject] = []
        inserted.reserveCapacity(request.inserts.count)
        for row in request.inserts {
            if let existing = registeredObject(for: nested.resolve(row.id)), !existing.isPendingDelete {
                inserted.append(existing)
                continue
            }
            let entity = row.id.entity
            let object = objectClass(for: entity).init(entity: entity, insertInto: nil)
            object.objectID = row.id
            insert(object)
            inserted.append(object)
        }
        for (row, object) in zip(request.inserts, inserted) { apply(row, to: object) }
        for (row, object) in zip(request.updates, updated) { apply(row, to: object) }
        for change in request.toManyChanges {
            let owner = object(with: nested.resolve(change.owner))
            guard let slot = owner.slots.slotByName[change.relationship.name] else { continue }
            owner.replaceToMany(atSlot: slot, change.relationship, with: change.members.map { object(with: nested.resolve($0)) })
        }
        for deletion in request.deletes {
            delete(object(with: nested.resolve(deletion.id)))
        }
        processPendingChanges()
        // The child counts a saved object's version on from the one it read (new objects
        // from 1), as it does for a store's rows; make these the versions here.
        for id in insertIDs { nested.versions[nested.resolve(id)] = 1 }
        for row in request.updates { nested.versions[nested.resolve(row.id)] = row.version + 1 }
        return PermanentIDs(temporary: insertIDs, permanent: insertIDs, needsLookup: false)
    }

    /// This context's objects for the child's updates (in order), after checking that
    /// none of the changed or deleted objects moved on since the child read it.
    ///
    /// - Throws: `StoreConflicts` naming every object in conflict; nothing was changed.
    private func objectsForChildSave(_ request: SaveRequest) throws -> [ManagedObject] {
        var conflicts: [StoreVersionConflict] = []
        func checked(_ id: ManagedObjectID, version: Int64) -> ManagedObject {
            let object = self.object(with: nested.resolve(id))
            object.willAccessValues()
            // The row this context holds now may be newer than the one the child read.
            let current = nested.version(of: object.objectID, base: object.committed?.version)
            if object.isPendingDelete || object.isInaccessible {
                conflicts.append(StoreVersionConflict(id: id, expectedVersion: version, current: nil))
            } else if current != version {
                conflicts.append(StoreVersionConflict(id: id, expectedVersion: version, current: RowSnapshot(values: object.values, version: current)))
            }
            return object
        }
        let updated = request.updates.map { checked($0.id, version: $0.version) }
        for deletion in request.deletes { _ = checked(deletion.id, version: deletion.version) }
        guard conflicts.isEmpty else { throw StoreConflicts(conflicts: conflicts) }
        return updated
    }

    /// Sets the changed slots of a child's row on this context's object: attributes as
    /// they are, to-one relationships through their setter (the inverse follows). To-many
    /// relationships follow from their inverses' to-one sides, or come as `toManyChanges`.
    private func apply(_ row: SaveRequest.Row, to object: ManagedObject) {
        let slots = object.slots!
        for slot in row.changedSlots {
            if let relationship = slots.relationships[slot] {
                guard !relationship.isToMany else { continue }
                let target = row.values[slot].objectID.map { self.object(with: nested.resolve($0)) }
                object.setToOne(target, atSlot: slot, relationship)
            } else {
                object.setTypedValue(row.values[slot], atSlot: slot)
            }
        }
    }
}
