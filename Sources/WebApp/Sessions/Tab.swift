import BugsKit
import DemoStore
import EditingSession
import Foundation
import ListsKit
import OpenCoreData
import Synchronization

/// One browser tab: two private-queue contexts on the store.
///
/// - The **editor** runs the tab's actions, each one named undo step saved at once, with
///   the tab's own undo history. It never merges other editors' saves: when an action or
///   an undo meets objects another tab or program saved since, its save conflicts, so an
///   action runs again on fresh data and an undo is refused (the page says so) instead
///   of silently overwriting someone else's work.
/// - The **view** (`session`, `lists`, `tracker`) is what the tab's pages read and where
///   their fetched results controllers live. It merges every save — the editor's own at
///   once, every other tab's and process's through `RemoteChanges` — outside any undo
///   history, so the pages are always current.
final class Tab: Sendable {
    /// The tab's id, in its pages' forms and links.
    let id: String
    /// The history author of the editor's saves: every other tab merges them from the
    /// history; this tab's view has merged them already.
    let author: String
    /// The view's session: read-only use (`read`, `object`, `reference`).
    let session: EditingSession
    /// The nested lists, for reading and controllers.
    let lists: NestedList
    /// The project/bug tracker, for reading and controllers.
    let tracker: BugTracker
    /// Where the tab's actions run.
    let editor: Editor
    private let undo = Mutex(UndoState(undo: nil, redo: nil))
    private let observer: SaveObserver

    /// The tab's actions: the editor's session and the two apps on it.
    struct Editor: Sendable {
        let session: EditingSession
        let lists: NestedList
        let tracker: BugTracker
    }

    /// Opens the tab's two contexts on `store`; the editor's saves are recorded in the
    /// history under `author` and the tab's id.
    ///
    /// - Throws: the store's error when the root list cannot be read or made.
    init(id: String, store: DemoStore, author: String) throws {
        let tabAuthor = "\(author) tab \(id)"
        let editContext = store.newContext()
        editContext.performAndWait { editContext.transactionAuthor = tabAuthor }
        let editSession = EditingSession(context: editContext)
        editor = Editor(session: editSession, lists: try NestedList(session: editSession), tracker: BugTracker(session: editSession))
        let view = EditingSession(context: store.newContext())
        self.id = id
        self.author = tabAuthor
        session = view
        lists = try NestedList(session: view)
        tracker = BugTracker(session: view)
        // The editor's saves reach the view before the action returns, so the page the
        // browser loads next shows them.
        observer = SaveObserver(of: editContext) { view.mergeChanges(fromContextDidSave: $0) }
    }

    /// The labels of the tab's Undo and Redo buttons, as of its last action.
    var undoState: UndoState { undo.withLock { $0 } }

    /// Reads the editor's undo state for `undoState`; call after an action, off the view's
    /// queue (it waits for the editor's).
    func noteUndoState() {
        let state = UndoState(editor.session)
        undo.withLock { $0 = state }
    }

    /// Saves what the editor still holds (each action saves itself; this is for shutdown).
    func save() throws {
        try editor.session.read { context in
            if context.hasChanges { try context.save() }
        }
    }
}

/// The labels of a tab's Undo and Redo buttons ("Undo Add Item “Milk”"), nil when there
/// is nothing to undo or redo.
struct UndoState: Sendable, Encodable {
    let undo: String?
    let redo: String?

    init(undo: String?, redo: String?) {
        self.undo = undo
        self.redo = redo
    }

    init(_ session: EditingSession) {
        undo = session.undoActionName.map { $0.isEmpty ? "Undo" : "Undo \($0)" }
        redo = session.redoActionName.map { $0.isEmpty ? "Redo" : "Redo \($0)" }
    }
}

/// Calls `merge` with each did-save notification of one context, on the saving queue,
/// until released.
private final class SaveObserver: Sendable {
    private let token: Token

    private final class Token: @unchecked Sendable {
        // @unchecked Sendable: the token is only handed back to NotificationCenter.
        let value: any NSObjectProtocol
        init(_ value: any NSObjectProtocol) { self.value = value }
    }

    init(of context: ManagedObjectContext, merge: @escaping @Sendable (Notification) -> Void) {
        token = Token(NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { merge($0) })
    }

    deinit { NotificationCenter.default.removeObserver(token.value) }
}
