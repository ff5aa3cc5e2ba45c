import OpenCoreData

extension EditingSession {
    /// Whether there is an action to undo.
    public var canUndo: Bool { context.performAndWait { undoManager.canUndo } }
    /// Whether there is an undone action to redo.
    public var canRedo: Bool { context.performAndWait { undoManager.canRedo } }
    /// The name of the action `undo()` would undo, or nil.
    public var undoActionName: String? { context.performAndWait { undoManager.canUndo ? undoManager.undoActionName : nil } }
    /// The name of the action `redo()` would redo, or nil.
    public var redoActionName: String? { context.performAndWait { undoManager.canRedo ? undoManager.redoActionName : nil } }

    /// Undoes the last action and saves; returns its name, or nil when there was none.
    ///
    /// - Throws: `EditingSessionError.conflict` when another editor saved the same
    ///   objects since the action (the action stays undoable and nothing changes), or the
    ///   save's `CoreDataError`.
    @discardableResult
    public func undo() throws -> String? {
        try step(undoing: true)
    }

    /// Redoes the last undone action and saves; returns its name, or nil when there was none.
    ///
    /// - Throws: as `undo()`.
    @discardableResult
    public func redo() throws -> String? {
        try step(undoing: false)
    }

    private func step(undoing: Bool) throws -> String? {
        try context.performAndWait {
            guard undoing ? undoManager.canUndo : undoManager.canRedo else { return nil }
            let name = undoing ? undoManager.undoActionName : undoManager.redoActionName
            if undoing { context.undo() } else { context.redo() }
            do {
                try context.save()
                return name
            } catch {
                // Put the step back where it was (redo what was undone, or the reverse),
                // then show the store's values.
                if undoing { context.redo() } else { context.undo() }
                forgetUnsavedState()
                if let error = error as? CoreDataError, error.code == .mergeConflict {
                    throw EditingSessionError.conflict(action: name)
                }
                throw error
            }
        }
    }
}
