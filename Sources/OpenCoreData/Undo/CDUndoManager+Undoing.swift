import Foundation

extension CDUndoManager {
    // MARK: - Undo and redo

    /// Whether there is a group to undo (closed, or the open one with actions).
    public var canUndo: Bool {
        !undoStack.isEmpty || (openGroup.map { !$0.isEmpty } ?? false)
    }

    /// Whether there is a group to redo. Posts `checkpointNotification` first, as
    /// Foundation does, so pending changes (which would clear the redo stack) count.
    public var canRedo: Bool {
        postCheckpoint()
        return !redoStack.isEmpty
    }

    /// Undoes the last top-level group, closing it first if it is the only open one (the
    /// event's group). Traps if several groups are open (a programmer error).
    public func undo() {
        if groupingLevel == 1 { endUndoGrouping() }
        precondition(groupingLevel == 0, "CDUndoManager.undo(): \(groupingLevel) undo groups are open; close them with endUndoGrouping() first.")
        undoNestedGroup()
    }

    /// Undoes the last group: the last nested group of the open group if one is open,
    /// else the last top-level group. What the actions register while they run becomes
    /// one redo group, named as the undone one.
    ///
    /// Traps when called during an undo or redo, or when actions were registered in the
    /// open group since its last nested group closed (programmer errors, as in Foundation).
    public func undoNestedGroup() {
        postCheckpoint()
        precondition(!isUndoing && !isRedoing, "CDUndoManager.undoNestedGroup(): called while undoing or redoing.")
        // The checkpoint may have registered pending changes in a new event group: they
        // are the last step, to undo first.
        if groupingLevel == 1, openGroup?.isAutomatic == true { endUndoGrouping() }
        let group: Group
        if let open = openGroup {
            guard let last = open.actions.last else { return }
            guard case .group(let nested) = last else {
                preconditionFailure("CDUndoManager.undoNestedGroup(): actions were registered since the last nested group closed; close the group with endUndoGrouping() first.")
            }
            open.actions.removeLast()
            group = nested
        } else {
            guard let last = undoStack.popLast() else { return }
            group = last
        }
        post(Self.willUndoChangeNotification)
        run(group, undoing: true)
        post(Self.didUndoChangeNotification)
    }

    /// Redoes the last undone group; what its actions register becomes one undo group.
    /// Traps when called during an undo or redo (a programmer error).
    public func redo() {
        postCheckpoint()
        precondition(!isUndoing && !isRedoing, "CDUndoManager.redo(): called while undoing or redoing.")
        guard let group = redoStack.popLast() else { return }
        post(Self.willRedoChangeNotification)
        run(group, undoing: false)
        post(Self.didRedoChangeNotification)
    }

    /// Runs `group`'s actions, last first, inside a fresh top-level group that collects
    /// what they register (for the opposite stack), named as `group`.
    private func run(_ group: Group, undoing: Bool) {
        let outer = (openGroup, groupingLevel)
        suspendOpenGroups()
        if undoing { isUndoing = true } else { isRedoing = true }
        defer {
            isUndoing = false
            isRedoing = false
            resumeOpenGroups(outer)
        }
        beginUndoGrouping()
        let collecting = openGroup
        collecting?.actionName = group.actionName
        perform(group)
        endUndoGrouping()
    }

    private func perform(_ group: Group) {
        for action in group.actions.reversed() {
            switch action {
            case .invocation(let target, let handler):
                if let object = target.object { handler(object) }
            case .group(let nested):
                perform(nested)
            }
        }
    }

    // MARK: - Action names

    /// Names the open group (opening the event's group when `groupsByEvent` and none is
    /// open, so the name applies to everything the event registers); with no group open
    /// and no `groupsByEvent`, names the last undo group.
    public func setActionName(_ actionName: String) {
        if let openGroup {
            openGroup.actionName = actionName
        } else if groupsByEvent {
            openAutomaticGroupForName().actionName = actionName
        } else {
            undoStack.last?.actionName = actionName
        }
    }

    /// The name of the group `undo()` would undo ("" if none or unnamed).
    public var undoActionName: String {
        if let openGroup, !openGroup.isEmpty { return openGroup.actionName }
        return undoStack.last?.actionName ?? ""
    }

    /// The name of the group `redo()` would redo ("" if none or unnamed).
    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// The Undo menu item's title: "Undo" or "Undo <name>".
    public var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }

    /// The Redo menu item's title: "Redo" or "Redo <name>".
    public var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }

    /// "Undo" followed by `actionName` when it is not empty.
    public func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// "Redo" followed by `actionName` when it is not empty.
    public func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }
}
