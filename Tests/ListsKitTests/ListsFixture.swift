import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
@testable import ListsKit

/// A nested list on a test store, with what the tests read back: outlines and invariants.
struct ListsFixture {
    let stack: TestStack
    /// The session's context.
    let context: ManagedObjectContext
    let lists: NestedList

    init(kind: StoreKind) throws {
        try self.init(stack: TestStack(model: NestedList.model(), kind: kind))
    }

    /// A session on `context` (default: the stack's).
    init(stack: TestStack, context: ManagedObjectContext? = nil) throws {
        self.stack = stack
        self.context = context ?? stack.context
        lists = try NestedList(session: EditingSession(context: self.context))
    }

    var session: EditingSession { lists.session }
    var root: Reference<Item> { lists.root }

    /// Adds `titles` to `list` in turn, one action each; returns their references.
    @discardableResult
    func add(_ titles: String..., to list: Reference<Item>? = nil) throws -> [Reference<Item>] {
        try titles.map { try lists.add($0, to: list ?? root).reference }
    }

    /// The tree under the root as the session reads it: `a[a1 a2] b`, children in list order.
    func outline() throws -> String {
        try outline(of: root)
    }

    private func outline(of list: Reference<Item>) throws -> String {
        try lists.rows(in: list).map { row in
            row.childCount == 0 ? row.title : "\(row.title)[\(try outline(of: row.reference))]"
        }.joined(separator: " ")
    }

    /// The same outline read from the store by a new context: what the actions saved.
    func storeOutline() throws -> String {
        let context = stack.newContext()
        return try context.performAndWait {
            func text(_ item: Item) -> String {
                item.sortedChildren.map { $0.children.isEmpty ? $0.title : "\($0.title)[\(text($0))]" }.joined(separator: " ")
            }
            return text(try Item.root(in: context))
        }
    }

    /// What must hold after every action, as sentences (empty when all holds): one root,
    /// every item reachable from it (no orphan, no cycle), orders 0…n-1 in every list, and
    /// the object graph's own invariants.
    func problems() throws -> [String] {
        var problems = try context.performAndWait { () throws -> [String] in
            var problems: [String] = []
            let all = try context.fetch(FetchRequest<Item>())
            let roots = all.filter { $0.parent == nil }
            if roots.count != 1 || roots.first?.isRoot != true {
                problems.append("\(roots.count) parentless item(s): \(roots.map(\.title))")
            }
            if all.filter({ $0.isRoot == true }).count != 1 { problems.append("not exactly one isRoot item") }
            for item in all {
                let orders = item.children.map(\.order).sorted()
                if orders != (0 ..< Int64(orders.count)).map({ $0 }) {
                    problems.append("“\(item.title)”'s list has orders \(orders)")
                }
                var seen = Set<ObjectIdentifier>(), current: Item? = item
                while let step = current, seen.insert(ObjectIdentifier(step)).inserted { current = step.parent }
                if current != nil { problems.append("“\(item.title)” is in a parent cycle") }
                if item.parent == nil && item.isRoot != true { problems.append("“\(item.title)” is an orphan") }
            }
            return problems
        }
        problems += InvariantChecker.check(context)
        return problems
    }
}
