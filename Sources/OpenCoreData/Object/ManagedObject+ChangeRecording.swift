import Foundation

// Every write to an object's storage goes through `ManagedObject`: property setters,
// inverse maintenance, and the context's own writes (insert, delete, rollback, refresh,
// merges, save). Each *change* first calls `willChange()`, which records the object in
// its context's open event — a snapshot of it as it was, taken at the first touch of
// the event — so the context never writes an object's fields and the ledger never
// misses a change. Bookkeeping that leaves the object's observable state as it was
// (firing a fault, a save's new IDs and baselines) is not a change and records nothing.

extension ManagedObject {
    /// Records the object in its context's open event, before a change is written: the
    /// first time in an event it is listed and (when the ledger records) snapshotted; every
    /// later time it costs one integer compare.
    @inline(__always)
    func willChange() {
        // Compared without retaining the context: this runs on every write.
        guard let reference = contextReference,
              reference._withUnsafeGuaranteedRef({ $0.eventNumber }) != eventNumber else { return }
        touch(in: reference.takeUnretainedValue())
    }

    /// The first touch of the object in the context's open event.
    @inline(never)
    func touch(in context: ManagedObjectContext) {
        eventNumber = context.eventNumber
        context.ledger.record(self)
        list(in: context)
        context.eventDidBegin()
    }

    /// Enters the object in the context's list of objects that may have pending changes.
    func list(in context: ManagedObjectContext) {
        guard !isListed else { return }
        isListed = true
        context.pendingObjects.append(self)
    }

    /// The context dropped the object from its list of pending objects.
    func unlist() { isListed = false }

    /// Forgets which events touched the object (the context's event numbers wrapped).
    func forgetEvents() { eventNumber = 0 }

    // MARK: - Joining and leaving a context

    /// Attaches the object to `context` and enters it in its identity map.
    func attach(to context: ManagedObjectContext) {
        self.context = context
        context.registry[objectID] = Unmanaged.passUnretained(self)
    }

    /// Leaves the context: removed from its identity map, holding no context. (The
    /// context's list of pending objects drops it when next compacted.)
    func detach() {
        context?.registry.removeValue(forKey: objectID)
        context = nil
    }

    /// Makes the object a new object of `context`: default values when it has none yet,
    /// then registered and marked for insertion.
    func becomeInserted(into context: ManagedObjectContext) {
        // Touched before attaching, so the snapshot says it was not in the context.
        if eventNumber != context.eventNumber { touch(in: context) }
        list(in: context)
        if self.context == nil { attach(to: context) }
        if values.isEmpty {
            values = slots.defaultValues
            slotsToValidate = slots.defaultsToValidate
        }
        lifecycle = .inserted
    }

    /// Marks the object deleted (its values loaded first, for the delete rules).
    /// A new object deleted before any save is discarded instead: it simply disappears at
    /// the next save.
    func becomeDeleted() {
        willAccessValues()
        willChange()
        lifecycle = lifecycle == .inserted ? .discarded : .deleted
    }

    // MARK: - Discarding changes

    /// Drops the object's unsaved changes (`rollback()`): a new object leaves the context;
    /// any other becomes a fault again, reloaded from the store when next read.
    func rollBack() {
        willChange()
        context?.ledger.noteRefreshed(self)
        if lifecycle == .inserted || lifecycle == .discarded {
            lifecycle = .saved
            detach()
            return
        }
        lifecycle = .saved
        turnIntoFault(keepingSnapshot: false)
    }

    /// `refresh(_:mergeChanges:)` of a loaded, saved object: reload from the store, and
    /// with `mergeChanges` keep unsaved changes on top. A changed to-many relationship
    /// keeps its changes as edits (members added, removed, the order given), replayed on
    /// the store's current members.
    func refresh(mergeChanges: Bool) {
        willChange()
        context?.ledger.noteRefreshed(self)
        let changes = mergeChanges ? changedSlots.map { ($0, values[$0]) } : []
        let changedToMany = mergeChanges
            ? toMany.filter { changedSlots.contains($0.key) }.map { ($0.key, $0.value, toManyBase[$0.key] ?? RelatedObjects()) }
            : []
        turnIntoFault(keepingSnapshot: false)
        guard mergeChanges, !changes.isEmpty else { return }
        willAccessValues()
        for (slot, value) in changes {
            values[slot] = value
            changedSlots.insert(slot)
            if let attribute = slots.attributes[slot], !value.isCanonical(for: attribute) || value.isNaN {
                setNeedsValidation(true, slot: slot)
            }
        }
        for (slot, current, base) in changedToMany {
            let stored = relatedObjectIDs(atSlot: slot)
            toManyBase[slot] = stored
            toMany[slot] = current.replaying(since: base, on: stored)
        }
    }

    // MARK: - Changes made elsewhere

    /// The row was deleted by another context or a batch request: the object leaves the
    /// context and reads as deleted.
    func becomeDeletedElsewhere() {
        willChange()
        lifecycle = .saved
        changedSlots.removeAll()
        extras?.toMany.removeAll()
        becomeInaccessible()
        detach()
    }

    /// Drops references to objects whose rows were deleted elsewhere from loaded
    /// relationships.
    func dropReferences(to deleted: Set<ManagedObjectID>) {
        guard !faulted else { return }
        for slot in slots.toOneSlots {
            if let target = values[slot].objectID, deleted.contains(target) {
                willChange()
                values[slot] = .null
            }
        }
        for (slot, related) in toMany where related.ordered.contains(where: deleted.contains) {
            willChange()
            toMany[slot] = RelatedObjects(related.ordered.filter { !deleted.contains($0) })
        }
    }

    // MARK: - Bookkeeping (no change to what the object reads as)

    /// A fault takes a row just read from the store as the values it will load.
    func takeStoreSnapshot(_ snapshot: RowSnapshot?) {
        if faulted, let snapshot { committed = snapshot }
    }

    /// Forgets the store values a fault kept, so that it reads the store when fired.
    func forgetStoreSnapshot() {
        if faulted { committed = nil }
    }

    /// Makes a fresh object a fault for the row `id`, with the row's values if known.
    func becomeFault(for id: ManagedObjectID, snapshot: RowSnapshot?) {
        objectID = id
        committed = snapshot
        faulted = true
    }

    /// After a save wrote the object: its values are the store's, with `version`.
    func didCommit(version: Int64) {
        committed = RowSnapshot(values: values, version: version)
        changedSlots.removeAll()
        extras?.toManyBase.removeAll()
        lifecycle = .saved
    }

    /// After a save deleted the object's row (or wrote nothing for a discarded one).
    func didCommitDeletion() {
        lifecycle = .saved
        detach()
    }

    /// Takes another ID (a permanent one in place of a temporary one), in the identity
    /// map too.
    func rekey(to id: ManagedObjectID) {
        guard id != objectID else { return }
        if let context, let reference = context.registry.removeValue(forKey: objectID) {
            context.registry[id] = reference
            // Children may still call the object by its temporary ID.
            if context.nested.hasChildren, objectID.isTemporaryID, !id.isTemporaryID { context.nested.didTake(id, for: objectID) }
        }
        objectID = id
    }

    /// Replaces temporary IDs in loaded relationships by permanent ones.
    func remapRelationships(_ ids: PermanentIDs) {
        guard !faulted else { return }
        for slot in slots.toOneSlots {
            if let id = values[slot].objectID, let permanent = ids[id] { values[slot] = .object(permanent) }
        }
        for slot in toMany.keys { toMany[slot]?.remap(ids) }
    }

    /// Whether the object has changes the next save writes (or, discarded, drops).
    var hasPendingChange: Bool {
        lifecycle != .saved || !changedSlots.isEmpty
    }
}
