/// Everything an object holds between two events, copied cheaply (value arrays and
/// dictionaries are copy-on-write, so a snapshot costs a few references): the ledger's
/// record of an object before its first change in an event, and what undoing that
/// event puts back.
struct ObjectSnapshot {
    var objectID: ManagedObjectID
    var values: SlotValues
    var committed: RowSnapshot?
    var changedSlots: SlotSet
    var toMany: [Int: RelatedObjects]
    var toManyBase: [Int: RelatedObjects]
    var slotsToValidate: SlotSet
    var faulted: Bool
    var isInaccessible: Bool
    var lifecycle: Lifecycle
    /// Whether the object was registered in the context.
    var isRegistered: Bool

    /// Whether the object was part of the graph: registered and not deleted.
    var isLive: Bool { isRegistered && lifecycle != .deleted && lifecycle != .discarded && !isInaccessible }
}

extension ManagedObject {
    /// The object's state now.
    func snapshot() -> ObjectSnapshot {
        ObjectSnapshot(objectID: objectID, values: values, committed: committed, changedSlots: changedSlots,
                       toMany: extras?.toMany ?? [:], toManyBase: extras?.toManyBase ?? [:],
                       slotsToValidate: extras?.slotsToValidate ?? SlotSet(),
                       faulted: faulted, isInaccessible: isInaccessible, lifecycle: lifecycle,
                       isRegistered: context != nil)
    }
}
