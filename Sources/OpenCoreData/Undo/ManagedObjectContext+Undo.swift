import Foundation

extension ManagedObjectContext {
    // MARK: - Undo

    /// The undo manager that records the context's changes; nil (the default, as on iOS)
    /// records nothing and costs nothing.
    ///
    /// Each event (everything changed between two `processPendingChanges()`, which
    /// `save()`, fetches and the end of a `perform` block call) becomes one undo action:
    /// inserts, deletes with their cascades and `prepareForDeletion` edits, attribute
    /// changes and both sides of relationship changes, undone and redone together. With
    /// the manager's `groupsByEvent` the event is one undo group, so an action name set
    /// during the event names all of it. Undo works across a save: the context becomes
    /// dirty again, and the next save writes the restored state.
    ///
    /// Setting it ends the open event first (its changes are not recorded). Use the
    /// manager on the context's queue only.
    public var undoManager: CDUndoManager? {
        get { undoState?.manager }
        set {
            guard newValue !== undoState?.manager else { return }
            if let old = undoState {
                removeChangeConsumer(old.consumer)
                old.manager.checkpointHook = nil
                undoState = nil
            }
            guard let manager = newValue else { return }
            let state = ContextUndo(context: self, manager: manager)
            state.consumer = addChangeConsumer { [unowned state] changes in state.register(changes) }
            manager.checkpointHook = { [weak state] in state?.checkpoint() }
            undoState = state
        }
    }

    /// Ends the open event (registering it), then asks the undo manager to undo its last
    /// group, as Core Data's `undo()` does.
    public func undo() {
        processPendingChanges()
        undoManager?.undo()
        processPendingChanges()
    }

    /// Ends the open event, then asks the undo manager to redo its last undone group.
    public func redo() {
        processPendingChanges()
        undoManager?.redo()
        processPendingChanges()
    }

    /// Undoes one event's `changes` (an action of the undo manager): the objects go back
    /// as they were, and the event that records it ends here, so the undo manager files
    /// it as the redo (or undo) action.
    func undoEvent(_ changes: ChangeSet) {
        restore(changes)
        processPendingChanges()
    }

    /// The temporary-to-permanent IDs saves handed out while undo was on (nil without).
    var undoPermanentIDs: PermanentIDs? { undoState?.permanentIDs }
}

/// The context's side of undo: registers each closed event with the manager, closes the
/// event's undo group, and remembers the permanent IDs saves give new objects (undo
/// snapshots taken before a save name them by their temporary IDs).
///
/// Owned by the context; the manager's hook and actions hold it weakly, so neither keeps
/// the context alive (and the context gets no weak references, which would slow every
/// retain of it).
final class ContextUndo {
    // unowned(unsafe): the context owns this object and outlives it.
    unowned(unsafe) let context: ManagedObjectContext
    let manager: CDUndoManager
    var consumer = 0
    /// Set while this object drives the manager or the context, so that the manager's
    /// checkpoint (which processes pending changes) and the event's end do not recurse.
    private var isBusy = false
    private var savedTemporary: [[ManagedObjectID]] = []
    private var savedPermanent: [[ManagedObjectID]] = []
    private var lookup: PermanentIDs?

    init(context: ManagedObjectContext, manager: CDUndoManager) {
        self.context = context
        self.manager = manager
    }

    /// A closed event: one undo action that restores it (coalesced per object by the
    /// ledger: one snapshot each, whatever the number of writes).
    func register(_ changes: ChangeSet) {
        guard manager.isUndoRegistrationEnabled,
              !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) else { return }
        var changes = changes
        changes.completeToManySnapshots()
        manager.registerUndo(withTarget: self) { state in state.context.undoEvent(changes) }
    }

    /// The context's `processPendingChanges()` ended: close the event's undo group.
    func eventDidEnd() {
        guard !isBusy else { return }
        isBusy = true
        defer { isBusy = false }
        manager.endEventGroup()
    }

    /// The manager's checkpoint: register what is pending, as Core Data does.
    func checkpoint() {
        guard !isBusy else { return }
        isBusy = true
        defer { isBusy = false }
        context.processPendingChanges()
    }

    /// A save (or `obtainPermanentIDs`) gave `temporary` objects the `permanent` IDs.
    func noteSaved(temporary: [ManagedObjectID], permanent: [ManagedObjectID]) {
        guard !temporary.isEmpty else { return }
        savedTemporary.append(temporary)
        savedPermanent.append(permanent)
        lookup = nil
    }

    /// Every temporary-to-permanent mapping noted so far.
    var permanentIDs: PermanentIDs? {
        guard !savedTemporary.isEmpty else { return nil }
        if let lookup { return lookup }
        let made = PermanentIDs(temporary: savedTemporary.flatMap { $0 }, permanent: savedPermanent.flatMap { $0 }, needsLookup: true)
        lookup = made
        return made
    }
}

extension ChangeSet {
    /// Adds to each snapshot the to-many relationships loaded only after the object's
    /// first touch in the event, with the members they had before it (the base kept at
    /// their first change), so that undoing restores them even after a save.
    mutating func completeToManySnapshots() {
        for index in snapshots.indices {
            let touch = snapshots[index]
            guard let extras = touch.object.extras, !touch.before.faulted else { continue }
            var before = touch.before
            for (slot, members) in extras.toMany where before.toMany[slot] == nil {
                let isNew = before.lifecycle == .inserted || before.objectID.isTemporaryID
                before.toMany[slot] = isNew ? RelatedObjects() : extras.toManyBase[slot] ?? members
            }
            snapshots[index] = ChangeLedger.Touch(object: touch.object, before: before)
        }
    }
}
