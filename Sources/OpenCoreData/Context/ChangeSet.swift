import Foundation

/// What one event of a context changed, with the objects' state before it: the record
/// that undo, change notifications, child contexts and fetched results controllers
/// consume. `processPendingChanges()` closes each event into one. Not public API yet:
/// the live-graph features build on it; tools reach it as `@_spi(ChangeTracking)`.
///
/// An object is listed once: *inserted* when it entered the graph (inserted, or put back),
/// *deleted* when it left it (deleted, rolled back before its first save, or its row
/// deleted elsewhere), *invalidated* when its row turned out to be gone, *refreshed* when
/// it was reloaded from the store, and *updated* — with the properties whose values
/// differ — when it stayed and changed. Objects touched but unchanged are left out.
@_spi(ChangeTracking) public struct ChangeSet {
    public internal(set) var inserted: [ManagedObject] = []
    public internal(set) var updated: [ManagedObject] = []
    public internal(set) var deleted: [ManagedObject] = []
    public internal(set) var refreshed: [ManagedObject] = []
    public internal(set) var invalidated: [ManagedObject] = []
    /// Set by `reset()`: every object of the context is invalid.
    public internal(set) var invalidatedAll = false
    /// Whether the event merged changes saved elsewhere (`mergeChanges(fromContextDidSave:)`,
    /// `mergeChanges(fromRemoteContextSave:into:)`, automatic merging) rather than changes
    /// made in this context: its `inserted` objects were registered for rows another
    /// context inserted, its `refreshed` ones took rows another context updated.
    public internal(set) var isMerge = false
    /// The slots whose values differ, for each object of `updated`, in the same order.
    var changedSlots: [SlotSet] = []
    /// Every object the event touched, as it was before; restoring them undoes the event
    /// (those touched but unchanged are restored to what they still are).
    var snapshots: [ChangeLedger.Touch] = []

    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty && !invalidatedAll
    }

    /// The names of the properties of an updated object whose values changed (a linear
    /// search of `updated`; `changedKeys(at:)` reads them by position).
    public func changedKeys(of object: ManagedObject) -> Set<String> {
        guard let index = updated.firstIndex(where: { $0 === object }) else { return [] }
        return changedKeys(at: index)
    }

    /// The names of the changed properties of `updated[index]`.
    public func changedKeys(at index: Int) -> Set<String> {
        let object = updated[index]
        return object.slots.propertyNames(in: changedSlots[index])
    }
}

extension ChangeSet {
    /// The change set of an event from its touches: each object's snapshot compared with
    /// the object now.
    init(touches: [ChangeLedger.Touch], refreshedIDs: Set<ObjectIdentifier>, in context: ManagedObjectContext) {
        for touch in touches {
            let object = touch.object
            let before = touch.before
            let isLive = object.context === context && object.lifecycle != .deleted && object.lifecycle != .discarded && !object.isInaccessible
            if !before.isLive && isLive {
                inserted.append(object)
            } else if before.isLive && !isLive {
                if object.isInaccessible && object.context === context { invalidated.append(object) } else { deleted.append(object) }
            } else if !isLive {
                continue
            } else if (!refreshedIDs.isEmpty && refreshedIDs.contains(ObjectIdentifier(object))) || (!before.faulted && object.faulted) {
                refreshed.append(object)
            } else {
                let differing = Self.differingSlots(before, object)
                guard !differing.isEmpty else { continue }
                updated.append(object)
                changedSlots.append(differing)
            }
        }
        snapshots = touches
    }

    /// Whether slot `slot` holds the same value in both: the same bits (an untouched
    /// value, or the same string or data buffer) without a closer look, else `==`.
    @inline(__always)
    private static func same(_ a: SlotValues, _ b: SlotValues, _ slot: Int) -> Bool {
        let identical = a.withUnsafeBufferPointer { left in
            b.withUnsafeBufferPointer { right in
                guard let left = left.baseAddress, let right = right.baseAddress else { return false }
                return memcmp(left + slot, right + slot, MemoryLayout<SlotValue>.size) == 0
            }
        }
        return identical || a[slot] == b[slot]
    }

    /// The slots of a live object whose values differ from `before`. A fault on either
    /// side has the store's values, which no event of this context changes.
    private static func differingSlots(_ before: ObjectSnapshot, _ object: ManagedObject) -> SlotSet {
        var differing = SlotSet()
        guard !before.faulted, !object.faulted, before.values.count == object.values.count else { return differing }
        let slots = object.slots!
        let then = before.values, now = object.values
        for slot in slots.attributeSlots where !Self.same(then, now, slot) { differing.insert(slot) }
        for slot in slots.toOneSlots where !Self.same(then, now, slot) { differing.insert(slot) }
        for slot in slots.toManySlots {
            // Written to-many slots hold invalid values in `values`; compare those too.
            if !Self.same(then, now, slot) { differing.insert(slot); continue }
            guard let now = object.toMany[slot] else { continue }
            // Not loaded before the event: the members then were those read first, kept as
            // the base of the first change (or the store's, unchanged, for a new object).
            let isNew = before.lifecycle == .inserted || before.objectID.isTemporaryID
            let then = before.toMany[slot] ?? (isNew ? RelatedObjects() : object.toManyBase[slot] ?? now)
            let isOrdered = slots.relationships[slot]?.isOrdered == true
            if isOrdered ? then.ordered != now.ordered : then.members != now.members { differing.insert(slot) }
        }
        return differing
    }
}

extension ChangeSet {
    /// Marks a merge's change set, listing the objects it registered for rows inserted
    /// elsewhere (`ChangeLedger.noteMergedInsert`) as inserted, unless already listed or
    /// no longer live.
    mutating func noteMerge(inserted merged: [ManagedObject], in context: ManagedObjectContext) {
        isMerge = true
        guard !merged.isEmpty else { return }
        var listed = Set((inserted + updated + deleted + refreshed + invalidated).map(ObjectIdentifier.init))
        for object in merged where object.context === context && !object.isPendingDelete && !object.isInaccessible {
            if listed.insert(ObjectIdentifier(object)).inserted { inserted.append(object) }
        }
    }
}
