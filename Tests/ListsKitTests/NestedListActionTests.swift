import EditingSession
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// Every action, its undo step's name, its undo and its redo, on both stores; each leaves
/// the store holding what the session shows.
@Suite struct NestedListActionTests {
    /// Runs `action`, then undo and redo, checking the outline and the invariants at each
    /// step and the undo and redo names.
    func check(_ fixture: ListsFixture, _ name: String, before: String, after: String, _ action: () throws -> Void) throws {
        #expect(try fixture.outline() == before)
        try action()
        #expect(try fixture.outline() == after)
        #expect(try fixture.storeOutline() == after)
        #expect(fixture.session.undoActionName == name)
        #expect(try fixture.problems() == [])
        #expect(try fixture.session.undo() == name)
        #expect(try fixture.outline() == before)
        #expect(try fixture.storeOutline() == before)
        #expect(fixture.session.redoActionName == name)
        #expect(try fixture.problems() == [])
        #expect(try fixture.session.redo() == name)
        #expect(try fixture.outline() == after)
        #expect(try fixture.storeOutline() == after)
        #expect(try fixture.problems() == [])
    }

    @Test(arguments: StoreKind.allCases)
    func addAppendsToTheList(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let groceries = try fixture.add("Groceries")[0]
        try fixture.add("Bread", to: groceries)
        try check(fixture, "Add Item “Milk”", before: "Groceries[Bread]", after: "Groceries[Bread Milk]") {
            let milk = try fixture.lists.add("  Milk\n", to: groceries)
            #expect(milk.title == "Milk" && milk.order == 1 && milk.childCount == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func renameChangesTheTitle(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let milk = try fixture.add("Milk", "Bread")[0]
        try check(fixture, "Rename “Milk”", before: "Milk Bread", after: "Oat milk Bread") {
            try fixture.lists.rename(milk, to: "Oat milk")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deleteCascadesAndRenumbers(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("Bread", "Milk", "Eggs", "Tea")
        try fixture.add("Whole", "Skimmed", to: items[1])
        try check(fixture, "Delete “Milk”", before: "Bread Milk[Whole Skimmed] Eggs Tea", after: "Bread Eggs Tea") {
            try fixture.lists.delete(items[1])
            #expect(try fixture.lists.rows(in: fixture.root).map(\.order) == [0, 1, 2])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func reorderMovesARowWithinItsList(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B", "C", "D")
        try check(fixture, "Move “A”", before: "A B C D", after: "B C A D") {
            try fixture.lists.move(items[0], toIndex: 2)
        }
        try check(fixture, "Move “D”", before: "B C A D", after: "D B C A") {
            try fixture.lists.move(items[3], toIndex: 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func moveToAnotherParentRenumbersBothLists(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B", "C")
        try fixture.add("B1", "B2", to: items[1])
        try fixture.add("A1", to: items[0])
        try check(fixture, "Move “A”", before: "A[A1] B[B1 B2] C", after: "B[B1 A[A1] B2] C") {
            try fixture.lists.move(items[0], to: items[1], at: 1)
        }
        let b2 = try fixture.lists.item(atPath: "1.3").reference
        try check(fixture, "Move “B2”", before: "B[B1 A[A1] B2] C", after: "B[B1 A[A1]] C B2") {
            try fixture.lists.move(b2, to: fixture.root)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func moveWithinTheSameParentIsAReorder(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B", "C")
        try check(fixture, "Move “C”", before: "A B C", after: "C A B") {
            try fixture.lists.move(items[2], to: fixture.root, at: 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func undoAndRedoWalkTheWholeHistory(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B")
        try fixture.lists.rename(items[0], to: "Apples")
        try fixture.lists.move(items[1], toIndex: 0)
        try fixture.lists.delete(items[0])
        #expect(try fixture.outline() == "B")
        var undone: [String] = []
        while let name = try fixture.session.undo() { undone.append(name) }
        #expect(undone == ["Delete “Apples”", "Move “B”", "Rename “A”", "Add Item “B”", "Add Item “A”"])
        #expect(try fixture.outline() == "")
        #expect(!fixture.session.canUndo && fixture.session.canRedo)
        var redone: [String] = []
        while let name = try fixture.session.redo() { redone.append(name) }
        #expect(redone == undone.reversed())
        #expect(try fixture.outline() == "B")
        #expect(try fixture.storeOutline() == "B")
        #expect(try fixture.problems() == [])
    }
}

extension NestedListActionTests {
    @Test(arguments: StoreKind.allCases)
    func aRowDroppedWhereItWasIsNoStep(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B")
        try fixture.lists.move(items[1], toIndex: 1)
        try fixture.lists.move(items[0], to: fixture.root, at: 0)
        #expect(try fixture.outline() == "A B")
        #expect(fixture.session.undoActionName == "Add Item “B”")
    }
}
