import OpenCoreData

// The list edits at the object level, on the context's queue: each keeps the orders of
// every list it touches contiguous. `NestedList` checks the input first and wraps each in
// one named, saved undo step.
extension Item {
    /// The children of `parent`, sorted by `order`, optionally restricted to `orders`.
    static func childrenRequest(of parent: Item, orders: ClosedRange<Int64>? = nil) throws -> FetchRequest<Item> {
        let request = FetchRequest<Item>()
        if let orders {
            request.predicate = try CDPredicate(format: "parent == %@ AND order >= %@ AND order <= %@",
                                                argumentArray: [parent, orders.lowerBound, orders.upperBound])
        } else {
            request.predicate = try CDPredicate(format: "parent == %@", argumentArray: [parent])
        }
        request.sortDescriptors = [CDSortDescriptor(key: "order", ascending: true)]
        return request
    }

    /// How many children `parent` has: a count in the store (plus pending changes), which
    /// reads no object.
    static func childCount(of parent: Item, in context: ManagedObjectContext) throws -> Int {
        parent.loadBeforeReadingChildren()
        return try context.count(for: childrenRequest(of: parent))
    }

    /// The children of `parent` whose order is in `orders`, read in one fetch (not as faults).
    static func children(of parent: Item, orders: ClosedRange<Int64>, in context: ManagedObjectContext) throws -> [Item] {
        guard !orders.isEmpty else { return [] }
        parent.loadBeforeReadingChildren()
        let request = try childrenRequest(of: parent, orders: orders)
        request.returnsObjectsAsFaults = false
        return try context.fetch(request)
    }

    /// Loads this item, if it is a fault, before its children are read. The save checks
    /// the version it loads, which is then no newer than the children read: a child
    /// another editor adds or removes in between makes this save a merge conflict (and
    /// the session runs the action again) instead of slipping through with a stale count.
    func loadBeforeReadingChildren() {
        _ = order
    }

    /// A new item at the end of `parent`'s list (order = number of siblings).
    static func insert(_ title: String, under parent: Item, into context: ManagedObjectContext) throws -> Item {
        let order = try childCount(of: parent, in: context)
        let item = Item(context: context)
        item.title = title
        item.order = Int64(order)
        item.parent = parent
        return item
    }

    /// Moves this item to `index` (0-based, already checked) within its own list; the
    /// siblings between the old and the new place shift by one.
    func reorder(to index: Int, in context: ManagedObjectContext) throws {
        guard let parent else { return }
        let old = order, new = Int64(index)
        if new < old {
            for sibling in try Self.children(of: parent, orders: new ... old - 1, in: context) { sibling.order += 1 }
        } else if new > old {
            for sibling in try Self.children(of: parent, orders: old + 1 ... new, in: context) { sibling.order -= 1 }
        }
        order = new
    }

    /// Moves this item into `newParent`'s list at `index` (0…count, already checked): the
    /// later siblings of the old list move up, those of the new list from `index` down.
    func move(to newParent: Item, at index: Int, in context: ManagedObjectContext) throws {
        if let parent {
            for sibling in try Self.children(of: parent, orders: order + 1 ... Int64.max, in: context) { sibling.order -= 1 }
        }
        for sibling in try Self.children(of: newParent, orders: Int64(index) ... Int64.max, in: context) { sibling.order += 1 }
        parent = newParent
        order = Int64(index)
    }

    /// Whether `other` is this item or lies in its subtree (walks up from `other`).
    func isAncestor(ofOrSameAs other: Item) -> Bool {
        var current: Item? = other
        while let item = current {
            if item === self { return true }
            current = item.parent
        }
        return false
    }

    /// The items from the root down to this one.
    var pathFromRoot: [Item] {
        var path: [Item] = []
        var current: Item? = self
        while let item = current {
            path.append(item)
            current = item.parent
        }
        return path.reversed()
    }
}
