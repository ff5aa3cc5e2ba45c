import Foundation

// The writes a merge policy makes to an object it resolves (see `MergePolicy`): like the
// context's other writes (ManagedObject+ChangeRecording.swift), each is recorded in the
// open event first. The context decides the values; these only put them in place.

extension ManagedObject {
    /// Takes `row`, the store's current version of the object's row, as the base of its
    /// unsaved state: it reads `newValues`, the next save writes the slots in `changed`
    /// (based on `row`'s version), and each loaded to-many slot in `relations` holds its
    /// `members`, with the `stored` members as its base.
    func rebase(on row: RowSnapshot, values newValues: SlotValues, changed: SlotSet, relations: [Int: (members: RelatedObjects, stored: RelatedObjects)]) {
        willChange()
        values = newValues
        committed = row
        changedSlots = changed
        for (slot, relation) in relations {
            toMany[slot] = relation.members
            toManyBase[slot] = changed.contains(slot) ? relation.stored : nil
        }
    }

    /// The object's delete is undone: it reads as the stored `row`, without changes; its
    /// to-many relationships are read from the store again when next used.
    func undoDeletion(as row: RowSnapshot) {
        willChange()
        lifecycle = .saved
        values = row.values
        committed = row
        changedSlots.removeAll()
        extras?.toMany.removeAll()
        extras?.toManyBase.removeAll()
    }

    /// The object stays deleted, now based on `row` (the store's current version); its
    /// to-many slots in `relations` hold the members the store has added since.
    func rebaseDeletion(on row: RowSnapshot, relations: [Int: RelatedObjects]) {
        willChange()
        committed = row
        for (slot, members) in relations { toMany[slot] = members }
    }

    /// The object's row was deleted in the store and the object is written again as a
    /// new row with its ID and all its values (the overwrite policy).
    func becomeReinserted() {
        willChange()
        lifecycle = .inserted
        committed = nil
        changedSlots.removeAll()
        extras?.toManyBase.removeAll()
    }

    /// The object, re-inserted here (the overwrite policy), finds its row written again
    /// elsewhere meanwhile: it is based on that `row` as a saved object once more, every
    /// stored slot to be written over it.
    func becomeSaved(basedOn row: RowSnapshot) {
        willChange()
        lifecycle = .saved
        committed = row
        changedSlots = slots.storedSlotSet
    }
}
