import Foundation

extension ManagedObject {
    /// Loads the values of a fault before they are read or written.
    @inline(__always)
    func willAccessValues() {
        if ConcurrencyDebug.isEnabled { checkQueueForAccess() }
        if faulted { fireFault() }
    }

    private func fireFault() {
        guard let context else {
            preconditionFailure("ManagedObject: \(entity.name) \(objectID) is a fault whose context is gone (reset or deallocated); fetch it again from a live context.")
        }
        context.fulfillFault(self)
    }

    /// Takes the stored values as the object's own (firing the fault).
    func adopt(_ snapshot: RowSnapshot) {
        committed = snapshot
        values = snapshot.values
        faulted = false
        awakeFromFetch()
    }

    /// The row behind this fault was deleted elsewhere: read as deleted, with empty values
    /// (Core Data's `shouldDeleteInaccessibleFaults`).
    func becomeInaccessible() {
        willChange()
        isInaccessible = true
        values = SlotValues(repeating: .null, count: slots!.properties.count)
        faulted = false
    }

    /// Drops the loaded values so the next access reloads them.
    func turnIntoFault(keepingSnapshot: Bool) {
        if !keepingSnapshot { committed = nil }
        values = []
        extras = nil
        changedSlots.removeAll()
        faulted = true
    }
}
