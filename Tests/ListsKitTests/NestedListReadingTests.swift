import EditingSession
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// The reads a page or the command line makes: a list's rows, a page of them, the
/// breadcrumb, positions and paths.
@Suite struct NestedListReadingTests {
    @Test(arguments: StoreKind.allCases)
    func rowsAreTheChildrenInOrder(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B", "C", "D", "E")
        try fixture.add("B1", "B2", to: items[1])
        let rows = try fixture.lists.rows(in: fixture.root)
        #expect(rows.map(\.title) == ["A", "B", "C", "D", "E"])
        #expect(rows.map(\.order) == [0, 1, 2, 3, 4])
        #expect(rows.map(\.childCount) == [0, 2, 0, 0, 0])
        #expect(rows.map(\.reference) == items)
        #expect(try fixture.lists.rows(in: fixture.root, offset: 1, limit: 2).map(\.title) == ["B", "C"])
        #expect(try fixture.lists.rows(in: fixture.root, offset: 4).map(\.title) == ["E"])
        #expect(try fixture.lists.rows(in: fixture.root, offset: 9).isEmpty)
        #expect(try fixture.lists.rows(in: fixture.root, limit: 0).isEmpty)
        #expect(throws: ListsError.self) { try fixture.lists.rows(in: fixture.root, offset: -1) }
        #expect(try fixture.lists.row(items[1]) == rows[1])
        let root = try fixture.lists.row(fixture.root)
        #expect(root.title == "Lists" && root.childCount == 5)
    }

    @Test(arguments: StoreKind.allCases)
    func breadcrumbAndPositionsLeadFromTheRoot(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B")
        let b1 = try fixture.add("B1", "B2", to: items[1])[1]
        let deep = try fixture.add("x", "y", "z", to: b1)[2]
        #expect(try fixture.lists.breadcrumb(to: deep).map(\.title) == ["Lists", "B", "B2", "z"])
        #expect(try fixture.lists.breadcrumb(to: fixture.root).map(\.title) == ["Lists"])
        #expect(try fixture.lists.positions(of: deep) == [2, 2, 3])
        #expect(try fixture.lists.positions(of: fixture.root) == [])
        #expect(try fixture.lists.item(atPath: "2.2.3").reference == deep)
        #expect(try fixture.lists.item(atPath: " 2.2 ").title == "B2")
    }

    @Test func referencesSurviveANewSessionAndCoordinator() throws {
        let fixture = try ListsFixture(kind: .sqlite)
        let milk = try fixture.add("Milk")[0]
        let other = try ListsFixture(stack: fixture.stack.reopened(model: NestedList.model()))
        #expect(other.root == fixture.root)
        let text = milk.description
        let parsed = try #require(Reference<Item>(text))
        #expect(try other.lists.row(parsed).title == "Milk")
    }
}
