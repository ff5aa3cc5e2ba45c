import Foundation

extension ManagedObjectContext {
    // MARK: - Pending changes

    /// Objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { inserted }
    /// Objects changed since the last save (not inserted or deleted ones).
    public var updatedObjects: Set<ManagedObject> { updated }
    /// Objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> { deleted }
    /// Whether there is anything to save.
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }

    /// Registers a new object; it is saved by the next `save()`.
    public func insert(_ object: ManagedObject) {
        guard object.context == nil || object.context === self else {
            preconditionFailure("ManagedObjectContext: \(object.entity.name) \(object.objectID) already belongs to another context.")
        }
        guard !object.isPendingInsert else { return }
        if object.values.isEmpty {
            object.values = object.slots.defaultValues
            object.slotsToValidate = object.slots.defaultsToValidate
        }
        object.isPendingInsert = true
        register(object)
        inserted.insert(object)
        insertionOrder.append(object)
        object.awakeFromInsert()
    }

    /// Marks `object` for deletion; delete rules run at `processPendingChanges()` and save.
    public func delete(_ object: ManagedObject) {
        precondition(object.context === self, "ManagedObjectContext: cannot delete \(object.entity.name) \(object.objectID): it belongs to another context.")
        guard !object.isPendingDelete else { return }
        object.willAccessValues()
        object.isPendingDelete = true
        pendingDeletes.append(object)
        deleted.insert(object)
        updated.remove(object)
    }

    /// Called by objects when a property changes.
    func objectDidChange(_ object: ManagedObject) {
        if object.isPendingInsert || object.isPendingDelete { return }
        updated.insert(object)
    }

    /// Applies delete rules to objects deleted since the last call: `prepareForDeletion`,
    /// then cascade, nullify, deny (checked at save) or no action, for each relationship.
    public func processPendingChanges() {
        var index = 0
        while index < pendingDeletes.count {
            let object = pendingDeletes[index]
            index += 1
            applyDeleteRules(to: object)
        }
        pendingDeletes.removeAll()
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
        if deletedObject.isPendingInsert {
            // Never saved: it simply disappears.
            deletedObject.isPendingInsert = false
            inserted.remove(deletedObject)
            deleted.remove(deletedObject)
        }
    }

    // MARK: - Discarding changes

    /// Discards every unsaved change: inserted objects leave, deleted and changed ones
    /// return to the values saved in the store.
    public func rollback() {
        pendingDeletes.removeAll()
        for object in inserted {
            object.isPendingInsert = false
            unregister(object.objectID)
            object.context = nil
        }
        // The objects reload through the coordinator's row cache, which reads the store
        // again when its rows may be stale (after a merge conflict, say): values kept
        // here could be older than the store and would conflict at every later save.
        for object in updated.union(deleted) {
            object.isPendingDelete = false
            object.turnIntoFault(keepingSnapshot: false)
        }
        inserted.removeAll()
        insertionOrder.removeAll()
        updated.removeAll()
        deleted.removeAll()
    }

    /// Forgets every object: registered objects become unusable, pending changes are lost.
    public func reset() {
        pendingDeletes.removeAll()
        unreadRelationships.removeAll()
        for reference in registry.values { reference.takeUnretainedValue().context = nil }
        registry.removeAll()
        classCache = ContextClassCache()
        lastInsertedEntity = nil
        inserted.removeAll()
        insertionOrder.removeAll()
        updated.removeAll()
        deleted.removeAll()
    }

    /// Reloads `object` from the store on next access. With `mergeChanges` its unsaved
    /// changes are kept on top of the fresh values; without, they are discarded. A changed
    /// to-many relationship keeps its changes as edits (members added, removed, the order
    /// given), replayed on the store's current members: another writer's members survive.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        guard object.context === self, !object.isPendingInsert, !object.faulted else { return }
        let changes = mergeChanges ? object.changedSlots.map { ($0, object.values[$0]) } : []
        let changedToMany = mergeChanges
            ? object.toMany.filter { object.changedSlots.contains($0.key) }.map { ($0.key, $0.value, object.toManyBase[$0.key] ?? RelatedObjects()) }
            : []
        if !mergeChanges { updated.remove(object) }
        object.turnIntoFault(keepingSnapshot: false)
        guard mergeChanges, !changes.isEmpty else { return }
        object.willAccessValues()
        for (slot, value) in changes {
            object.values[slot] = value
            object.changedSlots.insert(slot)
            if let attribute = object.slots.attributes[slot], !value.isCanonical(for: attribute) || value.isNaN {
                object.setNeedsValidation(true, slot: slot)
            }
        }
        for (slot, current, base) in changedToMany {
            let stored = object.relatedObjectIDs(atSlot: slot)
            object.toManyBase[slot] = stored
            object.toMany[slot] = Self.replaying(current, since: base, on: stored)
        }
    }

    /// `current`'s edits since `base` (members added, removed, the order given) applied to
    /// `stored`: the context's order of its members still in the store or added by it,
    /// then the members others added.
    static func replaying(_ current: RelatedObjects, since base: RelatedObjects, on stored: RelatedObjects) -> RelatedObjects {
        let kept = current.ordered.filter { stored.contains($0) || !base.contains($0) }
        let theirs = stored.ordered.filter { !current.contains($0) && !base.contains($0) }
        return RelatedObjects(kept + theirs)
    }
}
