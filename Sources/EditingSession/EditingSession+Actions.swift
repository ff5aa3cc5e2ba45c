import Foundation
import OpenCoreData

extension EditingSession {
    /// Runs one user action on the context's queue as one undo step named `actionName`,
    /// and saves it.
    ///
    /// If another context or process saved the same objects first (`.mergeConflict`),
    /// the attempt is taken back, the objects are read again and `body` runs again, up to
    /// `conflictRetries` times: an action computed from what it reads (a new item's
    /// order is its number of siblings) stays right under concurrent writers. If `body`
    /// or the save throws, the attempt is taken back — nothing changes, in memory or on
    /// disk — and the error is rethrown.
    @discardableResult
    public func perform<Result>(_ actionName: String, _ body: (ManagedObjectContext) throws -> Result) throws -> Result {
        try perform(body, named: { _ in actionName })
    }

    /// `perform(_:_:)` for an action whose name depends on what it did, e.g.
    /// “Delete “Milk”” once the item's title is read.
    @discardableResult
    public func perform<Result>(_ body: (ManagedObjectContext) throws -> Result, named actionName: (Result) -> String) throws -> Result {
        try perform(body, named: actionName, saved: { $0 })
    }

    /// `perform(_:named:)` whose result is made by `saved` after the save, on the
    /// context's queue: the place to read an inserted object's `reference(to:)`, which
    /// only a saved object has.
    public func perform<Made, Result>(
        _ body: (ManagedObjectContext) throws -> Made,
        named actionName: (Made) -> String,
        saved: (Made) throws -> Result
    ) throws -> Result {
        try context.performAndWait {
            var attempt = 0
            while true {
                // The action's events all go into one group (`groupsByEvent` would make a
                // step of each); an inner group holds the attempt, to take back alone.
                undoManager.beginUndoGrouping()
                undoManager.beginUndoGrouping()
                let made: Made
                do {
                    made = try body(context)
                    try context.save()
                } catch let error as CoreDataError where error.code == .mergeConflict && attempt < conflictRetries {
                    attempt += 1
                    takeBackAttempt()
                    // Two editors retrying in step would meet again: wait a random moment,
                    // longer each time (at most a few milliseconds).
                    Thread.sleep(forTimeInterval: Double.random(in: 0 ... 0.001) * Double(attempt))
                    continue
                } catch {
                    takeBackAttempt()
                    throw error
                }
                undoManager.endUndoGrouping()
                undoManager.setActionName(actionName(made))
                undoManager.endUndoGrouping()
                return try saved(made)
            }
        }
    }

    /// Reverts the unsaved changes of a failed attempt without a trace in the undo
    /// history (the two groups `perform` opened are closed empty), and reads every
    /// object again, so that a retry starts from the store.
    private func takeBackAttempt() {
        context.processPendingChanges()
        undoManager.endUndoGrouping()
        undoManager.disableUndoRegistration()
        undoManager.undoNestedGroup()
        undoManager.enableUndoRegistration()
        undoManager.endUndoGrouping()
        forgetUnsavedState()
    }

    /// Turns every registered object back into what the store holds, as an event of its
    /// own: a change made after a refresh in the same event would not reach the undo
    /// manager (a known limitation, `RefreshThenChangeTests`).
    func forgetUnsavedState() {
        for object in context.registeredObjects {
            context.refresh(object, mergeChanges: false)
        }
        context.processPendingChanges()
    }
}
