import DemoStore
import EditingSession
import Foundation
import ListsKit

/// The `lists` commands' way into `ListsKit`: one `NestedList` on a private-queue context
/// of the store, and the command line's addressing — `2.1` a 1-based position path from the
/// root, `@12` a reference, `root` the root — with positions 1-based throughout.
struct ListsSession {
    let lists: NestedList

    /// Opens the lists of `store`, creating the root item when the store has none.
    init(store: DemoStore) throws {
        lists = try NestedList(session: EditingSession(context: store.newContext()))
    }

    // MARK: - Reading

    func list(at item: String?) throws -> ListsOutput.List {
        let reference = try resolve(item)
        var path = ""
        let crumbs = try lists.breadcrumb(to: reference).enumerated().map { index, row in
            if index > 0 { path = Self.path(path, row.order) }
            return ListsOutput.Crumb(path: path, reference: row.reference.primaryKey, title: row.title)
        }
        return ListsOutput.List(breadcrumb: crumbs, items: try rows(in: reference, path: path))
    }

    func tree(at item: String?) throws -> ListsOutput.Tree {
        let reference = try resolve(item)
        let row = try lists.row(reference)
        let path = try lists.positions(of: reference).map(String.init).joined(separator: ".")
        return try tree(row, path: path)
    }

    private func tree(_ row: ItemRow, path: String) throws -> ListsOutput.Tree {
        let children = row.childCount == 0 ? [] : try lists.rows(in: row.reference).map { child in
            try tree(child, path: Self.path(path, child.order))
        }
        return ListsOutput.Tree(path: path, reference: row.reference.primaryKey, title: row.title, children: children)
    }

    private func rows(in list: Reference<Item>, path: String) throws -> [ListsOutput.Row] {
        try lists.rows(in: list).map { Self.row($0, path: Self.path(path, $0.order)) }
    }

    // MARK: - Actions

    func add(_ title: String, in parent: String?) throws -> ListsOutput.Action {
        let row = try lists.add(title, to: resolve(parent))
        return try action(row.reference)
    }

    func rename(_ item: String, to title: String) throws -> ListsOutput.Action {
        let reference = try resolve(item)
        try lists.rename(reference, to: title)
        return try action(reference)
    }

    /// Moves to 1-based `position` in its own list, or into `parent`'s list (at the end
    /// without a position).
    func move(_ item: String, into parent: String?, to position: Int?) throws -> ListsOutput.Action {
        let reference = try resolve(item)
        try onePositions {
            if let parent {
                try lists.move(reference, to: resolve(parent), at: position.map { $0 - 1 })
            } else if let position {
                try lists.move(reference, toIndex: position - 1)
            }
        }
        return try action(reference)
    }

    func remove(_ item: String) throws -> ListsOutput.Action {
        try lists.delete(resolve(item))
        return ListsOutput.Action(action: actionName)
    }

    // MARK: - Addressing

    /// The item `text` names: `@12` a reference, `root` (or nothing) the root, else a path.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown reference; `ListsError` for
    ///   a malformed path or one that names no item.
    func resolve(_ text: String?) throws -> Reference<Item> {
        guard let text, text != "root" else { return lists.root }
        if text.hasPrefix("@") {
            guard let reference = Reference<Item>(String(text.dropFirst())) else {
                throw EditingSessionError.notFound(entity: "Item", reference: text)
            }
            return try lists.row(reference).reference
        }
        return try lists.item(atPath: text).reference
    }

    /// The action just done, with the item as it now is.
    private func action(_ reference: Reference<Item>) throws -> ListsOutput.Action {
        let path = try lists.positions(of: reference).map(String.init).joined(separator: ".")
        return ListsOutput.Action(action: actionName, item: Self.row(try lists.row(reference), path: path))
    }

    /// The name of the action just done, as its undo step is named (“Add Item “Milk””).
    private var actionName: String { lists.session.undoActionName ?? "" }

    /// Runs `body`, turning the kit's 0-based `indexOutOfRange` into the command line's
    /// 1-based positions.
    private func onePositions(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch ListsError.indexOutOfRange(let index, let maximum) {
            throw DemoError.positionOutOfRange(index + 1, last: maximum + 1)
        }
    }

    private static func path(_ parent: String, _ order: Int) -> String {
        parent.isEmpty ? "\(order + 1)" : "\(parent).\(order + 1)"
    }

    private static func row(_ row: ItemRow, path: String) -> ListsOutput.Row {
        ListsOutput.Row(path: path, reference: row.reference.primaryKey, title: row.title, order: Int64(row.order), childCount: row.childCount)
    }
}
