import OpenCoreData

/// One editor's context — a browser tab, a run of the command line — whose changes are
/// user actions: each runs on the context's queue as one named undo step and is saved at
/// once, so what the user sees is what is on disk.
///
/// ```swift
/// let session = EditingSession(context: container.newBackgroundContext())
/// try session.perform("Add Item “Milk”") { context in … }
/// try session.undo()      // "Add Item “Milk”", undone and saved
/// ```
///
/// Use any context whose queue is not the main one (a private-queue context never needs
/// a run loop): every call runs `performAndWait`. Values leave the session as plain rows
/// or `Reference`s, never as managed objects.
public final class EditingSession: @unchecked Sendable {
    // @unchecked Sendable: the context and its undo manager are only used inside
    // `context.performAndWait`, on the context's queue.

    /// The context the actions change.
    public let context: ManagedObjectContext
    /// The context's undo manager, one named step per action.
    public let undoManager: CDUndoManager
    /// How many times an action runs again after another editor saved the same objects
    /// first (`.mergeConflict`) before the conflict is thrown.
    public let conflictRetries: Int

    /// Gives `context` an undo manager and uses it for actions.
    public init(context: ManagedObjectContext, conflictRetries: Int = 8) {
        let undoManager = CDUndoManager()
        context.performAndWait { context.undoManager = undoManager }
        self.context = context
        self.undoManager = undoManager
        self.conflictRetries = conflictRetries
    }

    /// Runs `body` on the context's queue, for reads. Changes made here are not an action:
    /// make them in `perform`.
    public func read<Result>(_ body: (ManagedObjectContext) throws -> Result) throws -> Result {
        try context.performAndWait { try body(context) }
    }
}
