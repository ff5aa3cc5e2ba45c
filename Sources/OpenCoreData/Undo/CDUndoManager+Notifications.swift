import Foundation

extension CDUndoManager {
    // Foundation's names on Apple platforms (`UndoManager.checkpointNotification`, …), with
    // the same raw strings; the object is the manager, and there is no `userInfo`.

    /// Posted when a group opens (except a top-level one) or closes, and by `canRedo`:
    /// clients register their pending changes (a context does, through its own hook).
    public static let checkpointNotification = Notification.Name("NSUndoManagerCheckpointNotification")
    /// Posted before `undo()` / `undoNestedGroup()` runs a group.
    public static let willUndoChangeNotification = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted after `undo()` / `undoNestedGroup()` ran a group.
    public static let didUndoChangeNotification = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted before `redo()` runs a group.
    public static let willRedoChangeNotification = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted after `redo()` ran a group.
    public static let didRedoChangeNotification = Notification.Name("NSUndoManagerDidRedoChangeNotification")
    /// Posted when a group opens.
    public static let didOpenUndoGroupNotification = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted just before a group closes.
    public static let willCloseUndoGroupNotification = Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Posted when a group has closed.
    public static let didCloseUndoGroupNotification = Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}
