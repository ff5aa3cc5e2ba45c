import Foundation

// Undoing an event: each object the event touched is put back as its snapshot recorded
// it. When the store holds what it held then (the same row, or none, under the same ID),
// the snapshot is put back whole. Otherwise the object takes the snapshot's *content* —
// whether it is part of the graph, its values and relationships — as a change against
// what the store holds now: a row that exists is updated or deleted, a row that does not
// is inserted (under the object's permanent ID, so it keeps its identity). Saving then
// writes the restored state, as Core Data does after an undo across a save.

extension ManagedObject {
    /// Puts the object back as `snapshot` recorded it (IDs handed out by saves since
    /// mapped through `permanentIDs`). Recorded as a change of the open event, like any
    /// other.
    func restore(_ snapshot: ObjectSnapshot, in context: ManagedObjectContext, permanentIDs: PermanentIDs?) {
        var snapshot = snapshot
        if let permanentIDs { snapshot.remap(permanentIDs) }
        // A fault has no content of its own (a snapshot of one is taken when its row turned
        // out to be gone): put back, it reads the store again. An object whose row another
        // writer deleted is put back as it was too: saving it then reports the conflict.
        if snapshot.objectID == objectID, snapshot.faulted || isInaccessible
            || (snapshot.hasRow == hasRow(in: context) && Self.same(snapshot.committed, committed)) {
            restoreWhole(snapshot, in: context)
        } else {
            restoreContent(snapshot, in: context)
        }
    }

    /// Whether two rows as last read or written are the same (a version alone is not: a
    /// row deleted and inserted again starts over at version 1).
    private static func same(_ a: RowSnapshot?, _ b: RowSnapshot?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.version == b.version && a.values == b.values
    }

    /// Whether the context's store holds the object's row (as far as the context knows).
    func hasRow(in context: ManagedObjectContext) -> Bool {
        self.context === context && !isInaccessible && (lifecycle == .saved || lifecycle == .deleted)
    }

    /// Puts back every field: nothing changed in the store since the snapshot.
    private func restoreWhole(_ snapshot: ObjectSnapshot, in context: ManagedObjectContext) {
        // Touched before attaching, so the ledger's snapshot says where it was.
        if eventNumber != context.eventNumber { touch(in: context) }
        list(in: context)
        if self.context !== context { attach(to: context) }
        values = snapshot.values
        committed = snapshot.committed
        changedSlots = snapshot.changedSlots
        if extras != nil || !snapshot.toMany.isEmpty || !snapshot.toManyBase.isEmpty || !snapshot.slotsToValidate.isEmpty {
            toMany = snapshot.toMany
            toManyBase = snapshot.toManyBase
            slotsToValidate = snapshot.slotsToValidate
        }
        faulted = snapshot.faulted
        isInaccessible = snapshot.isInaccessible
        lifecycle = snapshot.lifecycle
        if !snapshot.isRegistered { detach() }
    }

    /// Puts back the snapshot's content as a change against the row the store holds now
    /// (or its absence).
    private func restoreContent(_ snapshot: ObjectSnapshot, in context: ManagedObjectContext) {
        let rowExists = hasRow(in: context)
        if rowExists { willAccessValues() }
        if eventNumber != context.eventNumber { touch(in: context) }
        list(in: context)
        if self.context !== context {
            if objectID.isTemporaryID { objectID = snapshot.objectID }
            attach(to: context)
        }
        // The members the store holds now, for the to-many relationships put back.
        var stored: [Int: RelatedObjects] = [:]
        if rowExists {
            for slot in snapshot.toMany.keys { stored[slot] = toManyBase[slot] ?? relatedObjectIDs(atSlot: slot) }
        }
        var content = snapshot.values
        if content.count != slots.properties.count { content = values.count == slots.properties.count ? values : slots.defaultValues }
        faulted = false
        isInaccessible = false
        guard snapshot.isLive else {
            becomeAbsent(snapshot, content: content, rowExists: rowExists)
            return
        }
        values = content
        toMany = snapshot.toMany
        slotsToValidate = snapshot.slotsToValidate
        if rowExists {
            lifecycle = .saved
            (changedSlots, toManyBase) = differences(from: stored)
        } else {
            lifecycle = .inserted
            committed = nil
            changedSlots = snapshot.changedSlots
            toManyBase = [:]
        }
    }

    /// The object out of the graph: deleted when its row exists (saving deletes it),
    /// else gone from the context (or kept as discarded, as the snapshot had it). Its
    /// relationships are emptied: the other sides are restored without it.
    private func becomeAbsent(_ snapshot: ObjectSnapshot, content: SlotValues, rowExists: Bool) {
        values = content
        for slot in slots.toOneSlots { values[slot] = .null }
        toMany = Dictionary(uniqueKeysWithValues: slots.toManySlots.map { ($0, RelatedObjects()) })
        toManyBase = [:]
        if rowExists {
            lifecycle = .deleted
        } else if snapshot.isRegistered && snapshot.lifecycle == .discarded {
            lifecycle = .discarded
        } else {
            lifecycle = .saved
            committed = nil
            changedSlots.removeAll()
            detach()
        }
    }

    /// The slots whose values differ from the stored row, and the stored members of the
    /// to-many relationships that differ (their bases).
    private func differences(from stored: [Int: RelatedObjects]) -> (SlotSet, [Int: RelatedObjects]) {
        var changed = SlotSet()
        let row = committed?.values
        for slot in slots.attributeSlots + slots.toOneSlots {
            guard let row, row.count == values.count else { changed.insert(slot); continue }
            if row[slot] != values[slot] { changed.insert(slot) }
        }
        var bases: [Int: RelatedObjects] = [:]
        for (slot, base) in stored {
            guard let now = toMany[slot] else { continue }
            let isOrdered = slots.relationships[slot]?.isOrdered == true
            if isOrdered ? base.ordered != now.ordered : base.members != now.members {
                changed.insert(slot)
                bases[slot] = base
            }
        }
        return (changed, bases)
    }
}

extension ObjectSnapshot {
    /// Whether the object had a row in the store (as far as its context knew).
    var hasRow: Bool {
        isRegistered && !isInaccessible && (lifecycle == .saved || lifecycle == .deleted)
    }

    /// Temporary IDs replaced by the permanent ones saves gave them since.
    mutating func remap(_ ids: PermanentIDs) {
        if let permanent = ids[objectID] { objectID = permanent }
        if values.contains(where: { $0.objectID.map { ids[$0] != nil } ?? false }) {
            for index in values.indices {
                if let id = values[index].objectID, let permanent = ids[id] { values[index] = .object(permanent) }
            }
        }
        for slot in toMany.keys { toMany[slot]?.remap(ids) }
        for slot in toManyBase.keys { toManyBase[slot]?.remap(ids) }
    }
}
