import EditingSession
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// Undo of a subtree delete brings the whole subtree back as it was.
@Suite struct NestedListUndoTests {
    /// Every item under the root as "depth title order", depth-first.
    func rowsWithDepth(_ fixture: ListsFixture) throws -> [String] {
        var lines: [String] = []
        func walk(_ list: Reference<Item>, depth: Int) throws {
            for row in try fixture.lists.rows(in: list) {
                lines.append("\(depth) \(row.title) \(row.order)")
                try walk(row.reference, depth: depth + 1)
            }
        }
        try walk(fixture.root, depth: 1)
        return lines
    }

    @Test(arguments: StoreKind.allCases)
    func undoOfASubtreeDeleteRestoresNamesOrdersAndDepth(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let top = try fixture.add("Home", "Work", "Trips")
        let work = try fixture.add("Mail", "Plans", "Calls", to: top[1])
        let plans = try fixture.add("Q1", "Q2", to: work[1])
        try fixture.add("Budget", "Hiring", to: plans[1])
        let before = try rowsWithDepth(fixture)
        #expect(before.count == 10)

        try fixture.lists.delete(top[1])
        #expect(try rowsWithDepth(fixture) == ["1 Home 0", "1 Trips 1"])
        #expect(try fixture.session.undo() == "Delete “Work”")
        #expect(try rowsWithDepth(fixture) == before)
        #expect(try fixture.storeOutline() == fixture.outline())
        #expect(try fixture.problems() == [])
        // The restored items answer to their old references.
        #expect(try fixture.lists.breadcrumb(to: plans[1]).map(\.title) == ["Lists", "Work", "Plans", "Q2"])

        #expect(try fixture.session.redo() == "Delete “Work”")
        #expect(try rowsWithDepth(fixture) == ["1 Home 0", "1 Trips 1"])
        #expect(try fixture.problems() == [])
    }
}
