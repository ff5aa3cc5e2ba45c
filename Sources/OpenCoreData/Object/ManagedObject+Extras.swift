import Foundation

/// State few objects need, kept out of line so that every object (a fault above all)
/// stays small: loaded to-many relationships, and attribute values awaiting a full check.
final class ObjectExtras {
    /// Loaded to-many relationships by slot.
    var toMany: [Int: RelatedObjects] = [:]
    /// The members each changed to-many relationship had when it was read, so that a
    /// refresh keeping the changes can replay them on the store's current members.
    var toManyBase: [Int: RelatedObjects] = [:]
    /// Attribute slots whose value needs a full check at save: not of the attribute's
    /// type, or NaN. All other values were type-checked when set.
    var slotsToValidate = SlotSet()
}

extension ManagedObject {
    /// The extras, made on first write.
    private var madeExtras: ObjectExtras {
        if let extras { return extras }
        let made = ObjectExtras()
        extras = made
        return made
    }

    /// Loaded to-many relationships by slot (see `ObjectExtras`).
    var toMany: [Int: RelatedObjects] {
        get { extras?.toMany ?? [:] }
        set { madeExtras.toMany = newValue }
        _modify { yield &madeExtras.toMany }
    }

    /// The members of changed to-many relationships when read (see `ObjectExtras`).
    var toManyBase: [Int: RelatedObjects] {
        get { extras?.toManyBase ?? [:] }
        set { madeExtras.toManyBase = newValue }
        _modify { yield &madeExtras.toManyBase }
    }

    /// Attribute slots awaiting a full check at save (see `ObjectExtras`).
    var slotsToValidate: SlotSet {
        get { extras?.slotsToValidate ?? SlotSet() }
        set {
            if newValue.isEmpty && extras == nil { return }
            madeExtras.slotsToValidate = newValue
        }
    }

    /// Records whether the attribute in `slot` needs a full check at save.
    @inline(__always)
    func setNeedsValidation(_ needed: Bool, slot: Int) {
        if needed { madeExtras.slotsToValidate.insert(slot) } else { extras?.slotsToValidate.remove(slot) }
    }
}
