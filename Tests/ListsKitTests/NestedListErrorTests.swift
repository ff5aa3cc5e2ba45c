import EditingSession
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// Bad input throws a typed error with a readable description and changes nothing: the
/// outline, the store and the undo stack are as before.
@Suite struct NestedListErrorTests {
    /// Expects `action` to throw `expected` and leave everything as it was.
    func refuses(_ fixture: ListsFixture, _ expected: ListsError, _ action: () throws -> Void) throws {
        let outline = try fixture.outline(), undoName = fixture.session.undoActionName
        #expect(throws: expected) { try action() }
        #expect(!expected.description.isEmpty)
        #expect(try fixture.outline() == outline)
        #expect(try fixture.storeOutline() == outline)
        #expect(fixture.session.undoActionName == undoName)
        #expect(!fixture.stack.context.performAndWait { fixture.stack.context.hasChanges })
    }

    @Test(arguments: StoreKind.allCases)
    func badTitles(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let milk = try fixture.add("Milk")[0]
        let limit = NestedList.maximumTitleLength
        for title in ["", "   ", "\n\t "] {
            try refuses(fixture, .emptyTitle) { try fixture.lists.add(title, to: fixture.root) }
            try refuses(fixture, .emptyTitle) { try fixture.lists.rename(milk, to: title) }
        }
        let long = String(repeating: "é", count: limit + 1)
        try refuses(fixture, .titleTooLong(length: limit + 1, limit: limit)) { try fixture.lists.add(long, to: fixture.root) }
        try refuses(fixture, .titleTooLong(length: limit + 1, limit: limit)) { try fixture.lists.rename(milk, to: long) }
        try refuses(fixture, .titleHasControlCharacters) { try fixture.lists.add("Milk\nEggs", to: fixture.root) }
        // The limit itself is accepted.
        #expect(try fixture.lists.add(String(repeating: "é", count: limit), to: fixture.root).title.count == limit)
    }

    @Test(arguments: StoreKind.allCases)
    func indexesOutOfRange(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B", "C")
        try fixture.add("B1", to: items[1])
        try refuses(fixture, .indexOutOfRange(index: 3, maximum: 2)) { try fixture.lists.move(items[0], toIndex: 3) }
        try refuses(fixture, .indexOutOfRange(index: -1, maximum: 2)) { try fixture.lists.move(items[0], toIndex: -1) }
        try refuses(fixture, .indexOutOfRange(index: 2, maximum: 1)) { try fixture.lists.move(items[0], to: items[1], at: 2) }
        try refuses(fixture, .indexOutOfRange(index: 3, maximum: 2)) { try fixture.lists.move(items[0], to: fixture.root, at: 3) }
    }

    @Test(arguments: StoreKind.allCases)
    func movesIntoTheOwnSubtreeOrOfTheRoot(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let a = try fixture.add("A")[0]
        let a1 = try fixture.add("A1", to: a)[0]
        let a1x = try fixture.add("A1x", to: a1)[0]
        try refuses(fixture, .moveIntoOwnSubtree(title: "A")) { try fixture.lists.move(a, to: a) }
        try refuses(fixture, .moveIntoOwnSubtree(title: "A")) { try fixture.lists.move(a, to: a1x) }
        try refuses(fixture, .rootIsFixed) { try fixture.lists.move(fixture.root, to: a1x) }
        try refuses(fixture, .rootIsFixed) { try fixture.lists.move(fixture.root, toIndex: 0) }
        try refuses(fixture, .rootIsFixed) { try fixture.lists.delete(fixture.root) }
    }

    @Test(arguments: StoreKind.allCases)
    func pathsThatNameNoItem(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B")
        try fixture.add("B1", to: items[1])
        #expect(try fixture.lists.item(atPath: "2.1").title == "B1")
        #expect(try fixture.lists.item(atPositions: [2]).title == "B")
        #expect(try fixture.lists.item(atPath: "").reference == fixture.root)
        for path in ["x", "1..2", "0", "-1", "1.", "２", "1.a"] {
            #expect(throws: ListsError.invalidPath(path)) { try fixture.lists.item(atPath: path) }
        }
        #expect(throws: ListsError.noItem(path: "3", position: 3, count: 2)) { try fixture.lists.item(atPath: "3") }
        #expect(throws: ListsError.noItem(path: "2.1.1", position: 1, count: 0)) { try fixture.lists.item(atPath: "2.1.1") }
        #expect(throws: ListsError.noItem(path: "0", position: 0, count: 2)) { try fixture.lists.item(atPositions: [0]) }
    }

    @Test(arguments: StoreKind.allCases)
    func deletedReferencesAreNotFound(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let items = try fixture.add("A", "B")
        let a1 = try fixture.add("A1", to: items[0])[0]
        try fixture.lists.delete(items[0])
        let outline = try fixture.outline()
        for action in [
            { _ = try fixture.lists.row(a1) },
            { _ = try fixture.lists.rows(in: items[0]) },
            { try fixture.lists.add("X", to: a1) },
            { try fixture.lists.rename(items[0], to: "X") },
            { try fixture.lists.delete(a1) },
            { try fixture.lists.move(items[1], to: a1) },
            { try fixture.lists.move(a1, toIndex: 0) },
        ] as [() throws -> Void] {
            #expect(throws: EditingSessionError.self) { try action() }
        }
        #expect(try fixture.outline() == outline)
        #expect(fixture.session.undoActionName == "Delete “A”")
    }

    @Test func descriptionsAreReadable() {
        #expect(ListsError.emptyTitle.description == "The title is empty: give the item some text.")
        #expect(ListsError.noItem(path: "2.5", position: 5, count: 3).description
            == "There is no item at “2.5”: its list has 3 item(s), so position 5 does not exist.")
        #expect(ListsError.indexOutOfRange(index: 4, maximum: 2).description == "Index 4 is out of range: the list takes 0 through 2.")
    }
}
