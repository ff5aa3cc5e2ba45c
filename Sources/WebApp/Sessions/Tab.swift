import BugsKit
import DemoStore
import EditingSession
import ListsKit
import OpenCoreData

/// One browser tab's editor: its own private-queue context with its own undo manager,
/// so that one tab's undo never takes back another tab's work. Both apps work through it.
final class Tab: Sendable {
    /// The tab's id, in its pages' forms and links.
    let id: String
    /// The tab's context and undo history.
    let session: EditingSession
    /// The nested lists, on the tab's session.
    let lists: NestedList
    /// The project/bug tracker, on the tab's session.
    let tracker: BugTracker

    /// The history author of the tab's saves: every other tab merges them, this one not.
    let author: String

    /// Opens a context on `store` whose saves the history records under `author` and
    /// the tab's id, so that `RemoteChanges` merges them into every other tab.
    ///
    /// - Throws: the store's error when the root list cannot be read or made.
    init(id: String, store: DemoStore, author: String) throws {
        let context = store.newContext()
        let tabAuthor = "\(author) tab \(id)"
        context.performAndWait { context.transactionAuthor = tabAuthor }
        self.id = id
        self.author = tabAuthor
        session = EditingSession(context: context)
        lists = try NestedList(session: session)
        tracker = BugTracker(session: session)
    }

    /// The tab's undo and redo state, for its buttons.
    var undoState: UndoState { UndoState(session) }

    /// Saves what the tab's context still holds (each action saves itself; this is for
    /// shutdown).
    func save() throws {
        try session.read { context in
            if context.hasChanges { try context.save() }
        }
    }
}

/// The labels of a tab's Undo and Redo buttons ("Undo Add Item “Milk”"), nil when there
/// is nothing to undo or redo.
struct UndoState: Sendable, Encodable {
    let undo: String?
    let redo: String?

    init(_ session: EditingSession) {
        undo = session.undoActionName.map { $0.isEmpty ? "Undo" : "Undo \($0)" }
        redo = session.redoActionName.map { $0.isEmpty ? "Redo" : "Redo \($0)" }
    }
}
