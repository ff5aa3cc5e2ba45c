import EditingSession
import OpenCoreData

// Each action checks its input, then runs as one named undo step saved at once; a check
// that needs the store (an index against the list's length) runs inside the step, before
// any change, so a refused action changes nothing.
extension NestedList {
    /// Adds an item titled `title` (trimmed) at the end of `list`: its order is the number
    /// of siblings. Undo step: “Add Item “Milk””.
    ///
    /// - Returns: the new item's row.
    /// - Throws: `ListsError` for a bad title; `EditingSessionError.notFound` for an
    ///   unknown or deleted list.
    @discardableResult
    public func add(_ title: String, to list: Reference<Item>) throws -> ItemRow {
        let title = try Self.validatedTitle(title)
        return try session.perform({ context in
            try Item.insert(title, under: try session.object(list), into: context)
        }, named: { _ in "Add Item “\(title)”" }, saved: savedRow(for:))
    }

    /// Gives `item` the title `title` (trimmed). Undo step: “Rename “Milk”” (the old title).
    ///
    /// - Throws: `ListsError` for a bad title; `EditingSessionError.notFound` for an
    ///   unknown or deleted item.
    public func rename(_ item: Reference<Item>, to title: String) throws {
        let title = try Self.validatedTitle(title)
        try session.perform({ _ in
            let object = try session.object(item)
            defer { object.title = title }
            return object.title
        }, named: { old in "Rename “\(old)”" })
    }

    /// Deletes `item` and everything under it; the later items of its list move up.
    /// Undo step: “Delete “Milk””; its undo brings the whole subtree back.
    ///
    /// - Throws: `ListsError.rootIsFixed` for the root; `EditingSessionError.notFound`
    ///   for an unknown or deleted item.
    public func delete(_ item: Reference<Item>) throws {
        guard item != root else { throw ListsError.rootIsFixed }
        try session.perform({ context in
            let object = try session.object(item)
            if let parent = object.parent {
                // `prepareForDeletion` renumbers the later siblings: read them in one fetch
                // rather than one fault at a time.
                _ = try Item.children(of: parent, orders: object.order + 1 ... Int64.max, in: context)
            }
            context.delete(object)
            return object.title
        }, named: { title in "Delete “\(title)”" })
    }

    /// Moves `item` to `index` (0-based) within its own list: reordering by moving a row.
    /// The items it passes shift by one. Undo step: “Move “Milk””.
    ///
    /// - Throws: `ListsError.indexOutOfRange` unless 0 ≤ `index` < the list's count,
    ///   `ListsError.rootIsFixed` for the root; `EditingSessionError.notFound` for an
    ///   unknown or deleted item.
    public func move(_ item: Reference<Item>, toIndex index: Int) throws {
        guard item != root else { throw ListsError.rootIsFixed }
        try session.perform({ context in
            let object = try session.object(item)
            guard let parent = object.parent else { throw ListsError.rootIsFixed }
            try Self.check(index, in: 0 ..< Item.childCount(of: parent, in: context))
            try object.reorder(to: index, in: context)
            return object.title
        }, named: { title in "Move “\(title)”" })
    }

    /// Moves `item` into the list of `parent` at `index` (0-based; nil: at the end). Both
    /// lists stay contiguous. Into its own list this is a reorder (`move(_:toIndex:)`).
    /// Undo step: “Move “Milk””.
    ///
    /// - Throws: `ListsError.moveIntoOwnSubtree` when `parent` is `item` or under it,
    ///   `.indexOutOfRange` for an index past the list's end, `.rootIsFixed` for the
    ///   root; `EditingSessionError.notFound` for an unknown or deleted reference.
    public func move(_ item: Reference<Item>, to parent: Reference<Item>, at index: Int? = nil) throws {
        guard item != root else { throw ListsError.rootIsFixed }
        try session.perform({ context in
            let object = try session.object(item), newParent = try session.object(parent)
            guard !object.isAncestor(ofOrSameAs: newParent) else { throw ListsError.moveIntoOwnSubtree(title: object.title) }
            let count = try Item.childCount(of: newParent, in: context)
            if newParent === object.parent {
                let index = index ?? count - 1
                try Self.check(index, in: 0 ..< count)
                try object.reorder(to: index, in: context)
            } else {
                let index = index ?? count
                try Self.check(index, in: 0 ..< count + 1)
                try object.move(to: newParent, at: index, in: context)
            }
            return object.title
        }, named: { title in "Move “\(title)”" })
    }

    private static func check(_ index: Int, in range: Range<Int>) throws(ListsError) {
        guard range.contains(index) else { throw .indexOutOfRange(index: index, maximum: range.upperBound - 1) }
    }
}
