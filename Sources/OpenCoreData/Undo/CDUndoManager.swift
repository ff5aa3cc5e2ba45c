import Foundation

/// Foundation's `UndoManager` for Linux (where Foundation has none), named `CD…` because
/// Foundation owns the name on Apple platforms: a stack of undo groups, each a list of
/// actions, undone and redone as one step.
///
/// Register actions with `registerUndo(withTarget:handler:)`; they gather into the open
/// group. With `groupsByEvent` (the default) a group opens by itself at the first
/// registration (or at `setActionName(_:)`) and closes at the end of the event: a
/// `ManagedObjectContext` whose `undoManager` this is closes it at each
/// `processPendingChanges()`, as Core Data's run loop does on Apple platforms. `undo()`
/// reverses the last group, recording what its actions register as one redo group, and
/// `redo()` the reverse.
///
/// For example:
/// ```swift
/// let undoManager = CDUndoManager()
/// context.undoManager = undoManager
/// let item = Item(context: context)
/// undoManager.setActionName("Add Item")
/// context.processPendingChanges()   // the event ends: one undo step, "Undo Add Item"
/// context.undo()                    // the item leaves the context
/// ```
///
/// Not thread-safe, like Foundation's: use it on one queue, that of the context it
/// serves (inside `perform` / `performAndWait`). Notifications (`checkpointNotification`,
/// `didOpenUndoGroupNotification`, …) are posted on `NotificationCenter.default` with the
/// manager as object, on the caller's queue.
public final class CDUndoManager {
    /// A group of actions undone as one step; nested groups are actions of their parent.
    final class Group {
        var actions: [Action] = []
        var actionName = ""
        let parent: Group?
        /// Opened by the manager itself (`groupsByEvent`), to be closed at the event's end.
        let isAutomatic: Bool

        init(parent: Group?, isAutomatic: Bool) {
            self.parent = parent
            self.isAutomatic = isAutomatic
        }

        var isEmpty: Bool { actions.isEmpty }
    }

    /// One registered action (its target held weakly), or a closed nested group.
    enum Action {
        case invocation(target: WeakTarget, handler: (AnyObject) -> Void)
        case group(Group)
    }

    /// A target, not retained: the manager must not keep alive (or form a cycle with) the
    /// objects whose changes it records; an action whose target is gone does nothing.
    struct WeakTarget {
        weak var object: AnyObject?
    }

    // MARK: - State

    var undoStack: [Group] = []
    var redoStack: [Group] = []
    /// The innermost open group.
    private(set) var openGroup: Group?
    private var disableCount = 0

    /// The number of nested open groups (0 when none is open).
    public private(set) var groupingLevel = 0
    /// Whether a group opens by itself at the first registration of an event (closed at
    /// the event's end). If false, open and close groups explicitly before `undo()`.
    public var groupsByEvent = true
    /// Whether `undo()` or `undoNestedGroup()` is running its actions.
    public internal(set) var isUndoing = false
    /// Whether `redo()` is running its actions.
    public internal(set) var isRedoing = false
    /// The most undo groups kept; 0 (the default) keeps all. The oldest go first.
    public var levelsOfUndo = 0 {
        didSet { trim(&undoStack); trim(&redoStack) }
    }

    /// Called before each checkpoint notification, on the caller's queue: a context
    /// registers its pending changes here (Core Data observes the notification for this).
    var checkpointHook: (() -> Void)?

    public init() {}

    // MARK: - Registering

    /// Records an action that undoes a change: `handler(target)` runs when the group it
    /// belongs to is undone. The target is not retained.
    ///
    /// Ignored while registration is disabled. Outside `undo()` and `redo()` it clears the
    /// redo stack (a new change makes the undone ones unreachable). With no group open it
    /// opens one when `groupsByEvent`, and otherwise traps (a programmer error, as
    /// Foundation raises): call `beginUndoGrouping()` first.
    public func registerUndo<Target: AnyObject>(withTarget target: Target, handler: @escaping (Target) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        let group = openGroup ?? beginAutomaticGroup()
        group.actions.append(.invocation(target: WeakTarget(object: target), handler: { object in
            if let target = object as? Target { handler(target) }
        }))
        if !isUndoing && !isRedoing { redoStack.removeAll() }
    }

    /// Whether actions are registered (`disableUndoRegistration()` calls not yet balanced).
    public var isUndoRegistrationEnabled: Bool { disableCount == 0 }

    /// Stops recording actions until a balancing `enableUndoRegistration()`.
    ///
    /// A context registers each event's changes when the event ends: to keep changes
    /// out of undo, call `context.processPendingChanges()` before enabling again.
    public func disableUndoRegistration() { disableCount += 1 }

    /// Balances one `disableUndoRegistration()`.
    public func enableUndoRegistration() {
        precondition(disableCount > 0, "CDUndoManager.enableUndoRegistration(): registration is not disabled; balance each call with disableUndoRegistration().")
        disableCount -= 1
    }

    // MARK: - Groups

    /// Opens a group, nested in the open one if any: its actions are undone together.
    /// Posts `checkpointNotification` (for a nested group) and `didOpenUndoGroupNotification`.
    public func beginUndoGrouping() {
        if groupingLevel > 0 { postCheckpoint() }
        open(isAutomatic: false)
    }

    /// Closes the open group: a nested group becomes one action of its parent, a top-level
    /// one a step of the undo stack (of the redo stack while undoing). An empty group is
    /// dropped. Posts `checkpointNotification`, then `didCloseUndoGroupNotification`.
    /// Traps when no group is open (a programmer error, as Foundation raises).
    public func endUndoGrouping() {
        precondition(openGroup != nil, "CDUndoManager.endUndoGrouping(): no undo group is open; balance it with beginUndoGrouping().")
        postCheckpoint()
        guard let group = openGroup else { return }
        post(Self.willCloseUndoGroupNotification)
        openGroup = group.parent
        groupingLevel -= 1
        if !group.isEmpty {
            if let parent = group.parent {
                parent.actions.append(.group(group))
            } else if isUndoing {
                push(group, onto: &redoStack)
            } else {
                push(group, onto: &undoStack)
            }
        }
        post(Self.didCloseUndoGroupNotification)
    }

    /// Ends the event: closes the group `groupsByEvent` opened, if it is the only one open.
    /// The context calls it at each `processPendingChanges()`.
    func endEventGroup() {
        guard groupingLevel == 1, let group = openGroup, group.isAutomatic else { return }
        endUndoGrouping()
    }

    @discardableResult
    private func open(isAutomatic: Bool) -> Group {
        let group = Group(parent: openGroup, isAutomatic: isAutomatic)
        openGroup = group
        groupingLevel += 1
        post(Self.didOpenUndoGroupNotification)
        return group
    }

    /// The group `groupsByEvent` opens at an event's first registration; without
    /// `groupsByEvent` registering outside a group is a programmer error.
    private func beginAutomaticGroup() -> Group {
        precondition(groupsByEvent, "CDUndoManager: an action was registered with no undo group open and groupsByEvent false; call beginUndoGrouping() first.")
        return open(isAutomatic: true)
    }

    /// Opens the event's group for `setActionName(_:)` before anything is registered.
    func openAutomaticGroupForName() -> Group { open(isAutomatic: true) }

    /// Sets the open groups aside while `undo()` or `redo()` collects a group of its own.
    func suspendOpenGroups() {
        openGroup = nil
        groupingLevel = 0
    }

    /// Puts back what `suspendOpenGroups()` set aside.
    func resumeOpenGroups(_ saved: (group: Group?, level: Int)) {
        openGroup = saved.group
        groupingLevel = saved.level
    }

    private func push(_ group: Group, onto stack: inout [Group]) {
        stack.append(group)
        trim(&stack)
    }

    private func trim(_ stack: inout [Group]) {
        if levelsOfUndo > 0, stack.count > levelsOfUndo { stack.removeFirst(stack.count - levelsOfUndo) }
    }

    // MARK: - Clearing

    /// Clears the undo and redo stacks (and the actions of open groups), and enables
    /// registration again.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        var group = openGroup
        while let current = group {
            current.actions.removeAll()
            group = current.parent
        }
        disableCount = 0
    }

    /// Removes every action whose target is `target` (and those whose target is gone),
    /// dropping groups left empty.
    public func removeAllActions(withTarget target: AnyObject) {
        func keep(_ action: Action) -> Bool {
            switch action {
            case .invocation(let weak, _):
                guard let object = weak.object else { return false }
                return object !== target
            case .group(let group):
                group.actions.removeAll { !keep($0) }
                return !group.isEmpty
            }
        }
        undoStack.removeAll { !keep(.group($0)) }
        redoStack.removeAll { !keep(.group($0)) }
        var group = openGroup
        while let current = group {
            current.actions.removeAll { !keep($0) }
            group = current.parent
        }
    }

    // MARK: - Notifications

    func post(_ name: Notification.Name) {
        NotificationCenter.default.post(name: name, object: self)
    }

    func postCheckpoint() {
        checkpointHook?()
        post(Self.checkpointNotification)
    }
}
