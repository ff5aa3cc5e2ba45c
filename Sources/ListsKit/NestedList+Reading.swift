import EditingSession
import OpenCoreData

extension NestedList {
    /// One item as a row.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown or deleted reference.
    public func row(_ item: Reference<Item>) throws -> ItemRow {
        try session.read { _ in try savedRow(for: session.object(item)) }
    }

    /// The list of `list`: its children sorted by `order`, from `offset`, at most `limit`
    /// of them (nil: all). A page of a long list reads only its own rows.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown or deleted reference,
    ///   `ListsError.indexOutOfRange` for a negative offset or limit.
    public func rows(in list: Reference<Item>, offset: Int = 0, limit: Int? = nil) throws -> [ItemRow] {
        guard offset >= 0 else { throw ListsError.indexOutOfRange(index: offset, maximum: Int.max) }
        if let limit, limit < 0 { throw ListsError.indexOutOfRange(index: limit, maximum: Int.max) }
        return try session.read { context in
            let request = try Item.childrenRequest(of: try session.object(list))
            request.fetchOffset = offset
            request.fetchLimit = limit ?? 0
            request.returnsObjectsAsFaults = false
            if limit == 0 { return [] }
            return try context.fetch(request).map(savedRow(for:))
        }
    }

    /// The items from the root down to `item`, both included: the way back up from a
    /// sub-list.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown or deleted reference.
    public func breadcrumb(to item: Reference<Item>) throws -> [ItemRow] {
        try session.read { _ in try session.object(item).pathFromRoot.map(savedRow(for:)) }
    }

    /// The 1-based positions leading from the root to `item` (`[2, 1]` is the first item
    /// of the root's second item; the root's is `[]`).
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown or deleted reference.
    public func positions(of item: Reference<Item>) throws -> [Int] {
        try session.read { _ in try session.object(item).pathFromRoot.dropFirst().map { Int($0.order) + 1 } }
    }

    /// The item at `path`: 1-based positions separated by dots, from the root (`"2.1"`);
    /// an empty path is the root. The command line names items this way.
    ///
    /// - Throws: `ListsError.invalidPath` when `path` is not dotted positive numbers,
    ///   `ListsError.noItem` when a list on the way is too short.
    public func item(atPath path: String) throws -> ItemRow {
        let text = path.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return try row(root) }
        var positions: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard let position = Int(part), position > 0, part.allSatisfy(\.isASCII) else { throw ListsError.invalidPath(path) }
            positions.append(position)
        }
        return try item(atPositions: positions, path: text)
    }

    /// The item at 1-based `positions` from the root (`[]`: the root).
    ///
    /// - Throws: `ListsError.noItem` when a list on the way is too short.
    public func item(atPositions positions: [Int]) throws -> ItemRow {
        try item(atPositions: positions, path: positions.map(String.init).joined(separator: "."))
    }

    private func item(atPositions positions: [Int], path: String) throws -> ItemRow {
        try session.read { context in
            var current = try session.object(root)
            for position in positions {
                let request = try Item.childrenRequest(of: current, orders: Int64(position - 1) ... Int64(position - 1))
                request.fetchLimit = 1
                guard position > 0, let child = try context.fetch(request).first else {
                    throw ListsError.noItem(path: path, position: position, count: try Item.childCount(of: current, in: context))
                }
                current = child
            }
            return try savedRow(for: current)
        }
    }

    /// `row(for:)` of an item read from the store, which has a reference.
    func savedRow(for item: Item) throws -> ItemRow {
        ItemRow(reference: try session.savedReference(to: item), title: item.title, order: Int(item.order), childCount: item.children.count)
    }
}
