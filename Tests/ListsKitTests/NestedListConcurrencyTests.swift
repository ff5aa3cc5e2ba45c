import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// Two sessions adding to one list at once (two tabs, or the server and the command line)
/// keep its orders contiguous: the session retries an action whose list changed meanwhile.
@Suite struct NestedListConcurrencyTests {
    func addConcurrently(_ fixtures: [ListsFixture], list: Reference<Item>, each count: Int) throws {
        let sessions = fixtures.map(\.lists)
        DispatchQueue.concurrentPerform(iterations: sessions.count) { index in
            for number in 0 ..< count {
                #expect(throws: Never.self) { try sessions[index].add("w\(index)-\(number)", to: list) }
            }
        }
    }

    func expectContiguous(_ fixture: ListsFixture, list: Reference<Item>, count: Int) throws {
        let reader = try ListsFixture(stack: fixture.stack.reopened(model: NestedList.model()))
        let rows = try reader.lists.rows(in: list)
        #expect(rows.count == count)
        #expect(rows.map(\.order) == Array(0 ..< count))
        #expect(Set(rows.map(\.title)).count == count)
        #expect(try reader.problems() == [])
    }

    @Test func twoCoordinatorsOfOneFileAddToOneList() throws {
        let first = try ListsFixture(kind: .sqlite)
        let list = try first.add("Shared")[0]
        try first.add("existing", to: list)
        let second = try ListsFixture(stack: first.stack.reopened(model: NestedList.model()))
        try addConcurrently([first, second], list: list, each: 8)
        try expectContiguous(first, list: list, count: 17)
        #expect(try first.problems() == [] && second.problems() == [])
    }

    @Test(arguments: StoreKind.allCases)
    func twoContextsOfOneCoordinatorAddToOneList(kind: StoreKind) throws {
        let first = try ListsFixture(kind: kind)
        let list = try first.add("Shared")[0]
        let second = try ListsFixture(stack: first.stack, context: first.stack.newContext())
        try addConcurrently([first, second], list: list, each: 8)
        let rows = try first.lists.rows(in: list)
        #expect(rows.map(\.order) == Array(0 ..< 16))
        #expect(Set(rows.map(\.title)).count == 16)
        #expect(try second.lists.rows(in: list).map(\.order) == Array(0 ..< 16))
    }

    /// Forces the interleaving: B counts the list and inserts, and while B saves, A (another
    /// coordinator: another process) saves an add to the same list first. B's save meets a
    /// conflict on the list; the session takes the attempt back and runs it again.
    ///
    /// ```
    /// B: count (1) ─ insert at 1 ─ save ┬──────────────┬ conflict ─ count (2) ─ insert at 2 ─ save
    /// A:                                └ add, saved 1 ┘
    /// ```
    @Test func anAddRacedByAnotherProcessRunsAgain() throws {
        let a = try ListsFixture(kind: .sqlite)
        let list = try a.add("Shared")[0]
        try a.add("first", to: list)
        let b = try ListsFixture(stack: a.stack.reopened(model: NestedList.model()))
        _ = try b.lists.rows(in: list)                 // B has read the list
        let listsA = a.lists
        let hook = SaveHook(context: b.context) { try listsA.add("from A", to: list) }
        let added = try b.lists.add("from B", to: list)
        #expect(hook.calls == 2)                       // the save that met the conflict, and the retry's
        #expect(added.order == 2)
        #expect(try b.lists.rows(in: list).map(\.title) == ["first", "from A", "from B"])
        try expectContiguous(a, list: list, count: 3)
        #expect(b.session.undoActionName == "Add Item “from B”")
        #expect(try b.session.undo() == "Add Item “from B”")
        #expect(try a.lists.rows(in: list).map(\.title) == ["first", "from A"])
    }
}
