import Foundation

extension ManagedObjectContext {
    // MARK: - Pending changes

    /// Objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(PendingChanges(self).inserted)
    }
    /// Objects changed since the last save (not inserted or deleted ones).
    public var updatedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(PendingChanges(self).updated)
    }
    /// Objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> {
        checkQueue()
        return Set(PendingChanges(self).deleted)
    }
    /// Whether there is anything to save.
    public var hasChanges: Bool {
        checkQueue()
        return pendingObjects.contains(where: willBeSaved)
    }

    /// Whether the next save writes `object`: it is this context's, and inserted, updated
    /// or deleted (not a new object deleted again).
    func willBeSaved(_ object: ManagedObject) -> Bool {
        object.context === self && object.lifecycle != .discarded && object.hasPendingChange
    }

    /// Drops objects without pending changes from `pendingObjects`: those that left the
    /// context, and those clean again and not touched in the open event (a later change
    /// in the event would not list them again). The one place that forgets change state.
    func compactPendingObjects() {
        pendingObjects.removeAll { object in
            guard object.context === self, object.hasPendingChange || object.eventNumber == eventNumber else {
                object.unlist()
                return true
            }
            return false
        }
        compactionThreshold = max(4096, pendingObjects.count * 2)
    }

    /// Registers a new object; it is saved by the next `save()`.
    public func insert(_ object: ManagedObject) {
        checkQueue()
        guard object.context == nil || object.context === self else {
            preconditionFailure("ManagedObjectContext: \(object.entity.name) \(object.objectID) already belongs to another context.")
        }
        guard !object.isPendingInsert else { return }
        object.becomeInserted(into: self)
        object.awakeFromInsert()
    }

    /// Marks `object` for deletion; delete rules run at `processPendingChanges()` and save.
    public func delete(_ object: ManagedObject) {
        checkQueue()
        precondition(object.context === self, "ManagedObjectContext: cannot delete \(object.entity.name) \(object.objectID): it belongs to another context.")
        guard !object.isPendingDelete else { return }
        object.becomeDeleted()
        pendingDeletes.append(object)
        pinRelated(of: object)
        eventDidBegin()
    }

    /// Holds the objects `object` points at through to-one relationships with an inverse,
    /// as this context read them, until the delete rules update their inverse side.
    /// Released meanwhile, they would be read again at `processPendingChanges()`, perhaps
    /// newer than what the caller saw when it decided on the delete, and the save would
    /// then check them against the newer version: a change made elsewhere (a sibling
    /// added to the deleted object's list) would go unnoticed.
    private func pinRelated(of object: ManagedObject) {
        guard let values = object.faulted ? object.committed?.values : object.values else { return }
        let relationships = object.slots.relationships
        for slot in object.slots.toOneSlots where relationships[slot]?.inverseRelationship != nil {
            if let id = values[slot].objectID, let related = registeredObject(for: id) { pinnedForDeleteRules.append(related) }
        }
    }

    /// Applies delete rules to objects deleted since the last call: `prepareForDeletion`,
    /// then cascade, nullify, deny (checked at save) or no action, for each relationship.
    func applyPendingDeleteRules() {
        var index = 0
        while index < pendingDeletes.count {
            let object = pendingDeletes[index]
            index += 1
            applyDeleteRules(to: object)
        }
        pendingDeletes.removeAll()
        pinnedForDeleteRules.removeAll()
    }

    private func applyDeleteRules(to deletedObject: ManagedObject) {
        deletedObject.prepareForDeletion()
        let slots = deletedObject.entity.slots
        for slot in slots.toOneSlots + slots.toManySlots {
            let relationship = slots.relationships[slot]!
            let relatedIDs = relationship.isToMany
                ? deletedObject.relatedObjectIDs(atSlot: slot).ordered
                : deletedObject.toOneID(atSlot: slot).map { [$0] } ?? []
            switch relationship.deleteRule {
            case .cascade:
                for id in relatedIDs {
                    let related = object(with: id)
                    if !related.isPendingDelete, !related.isInaccessible { delete(related) }
                }
                fallthrough
            case .nullify:
                guard let inverse = relationship.inverseRelationship else { continue }
                for id in relatedIDs {
                    let related = object(with: id)
                    if !related.isInaccessible { related.primitiveUnlink(deletedObject, via: inverse) }
                }
            case .deny, .noAction:
                continue
            }
        }
    }

    // MARK: - Discarding changes

    /// Discards every unsaved change: inserted objects leave, deleted and changed ones
    /// return to the values saved in the store. Clears the undo manager's actions, as in
    /// Core Data.
    ///
    /// The objects reload through the coordinator's row cache, which reads the store
    /// again when its rows may be stale (after a merge conflict, say): values kept here
    /// could be older than the store and would conflict at every later save.
    public func rollback() {
        checkQueue()
        undoManager?.removeAllActions()
        pendingDeletes.removeAll()
        pinnedForDeleteRules.removeAll()
        for object in pendingObjects where object.context === self && object.hasPendingChange {
            object.rollBack()
        }
        compactPendingObjects()
    }

    /// Forgets every object: registered objects become unusable, pending changes are lost
    /// (and the undo manager's actions, which name them).
    public func reset() {
        checkQueue()
        undoManager?.removeAllActions()
        pendingDeletes.removeAll()
        pinnedForDeleteRules.removeAll()
        unreadRelationships.removeAll()
        _ = ledger.close()
        for reference in Array(registry.values) { reference.takeUnretainedValue().detach() }
        classCache = ContextClassCache()
        lastInsertedEntity = nil
        compactPendingObjects()
        endEvent(with: ChangeSet(invalidatedAll: true))
    }

    /// Reloads `object` from the store on next access. With `mergeChanges` its unsaved
    /// changes are kept on top of the fresh values; without, they are discarded. A changed
    /// to-many relationship keeps its changes as edits (members added, removed, the order
    /// given), replayed on the store's current members: another writer's members survive.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue()
        guard object.context === self, !object.isPendingInsert, !object.faulted else { return }
        object.refresh(mergeChanges: mergeChanges)
    }
}
