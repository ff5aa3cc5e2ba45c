import EditingSession
import Foundation
import OpenCoreData

/// objc.io's nested lists, free of any UI: one root item whose list holds items that each
/// hold a list of their own, at any depth.
///
/// A `NestedList` works through one `EditingSession` (one context, so one tab or one
/// command-line run). Reads hand out `ItemRow` values; each action — add, rename, delete,
/// move — is checked first (bad input throws `ListsError` and changes nothing), then runs
/// as one named undo step saved at once, retried by the session when another context or
/// process saved the same list first. Orders stay contiguous (0…n-1) in every list.
///
/// For example:
///
/// ```swift
/// let coordinator = PersistentStoreCoordinator(managedObjectModel: try NestedList.model())
/// try coordinator.addPersistentStore(type: .sqlite, at: url)
/// let context = ManagedObjectContext(concurrencyType: .privateQueue)
/// context.persistentStoreCoordinator = coordinator
/// let lists = try NestedList(session: EditingSession(context: context))
/// let groceries = try lists.add("Groceries", to: lists.root)
/// try lists.add("Milk", to: groceries.reference)
/// try lists.rows(in: groceries.reference).map(\.title)    // ["Milk"]
/// try lists.session.undo()                                 // "Add Item “Milk”"
/// ```
public final class NestedList: Sendable {
    /// The context, its undo stack and its save-and-retry, shared with the caller: undo and
    /// redo through it.
    public let session: EditingSession
    /// The root item, whose list is the top level.
    public let root: Reference<Item>

    /// Works through `session`, creating the root item (saved at once, not undoable) when
    /// the store has none — safely even when another process does the same at once.
    ///
    /// - Throws: `CoreDataError` when the store cannot be read or written.
    public init(session: EditingSession) throws {
        self.session = session
        root = try session.read { context in
            let root = try Item.root(in: context)
            guard let reference = session.reference(to: root) else {
                throw CoreDataError(.storeSaveFailed, "The root item was not saved.", objectID: root.objectID)
            }
            return reference
        }
    }

    /// `item` as a row; nil for an item not saved yet (it has no reference). Call on the
    /// session's queue (inside `session.read`) with an object of the session's context:
    /// a controller's delegate turns the objects it is handed into rows this way.
    public func row(for item: Item) -> ItemRow? {
        try? savedRow(for: item)
    }
}
