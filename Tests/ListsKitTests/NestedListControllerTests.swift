import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// The controller a live list page observes.
@Suite struct NestedListControllerTests {
    /// Records the controller's per-change callbacks as "type title from→to".
    final class Recorder: FetchedResultsControllerDelegate {
        var changes: [String] = []
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            let title = (anObject as? Item)?.title ?? "?"
            changes.append("\(type) \(title) \(indexPath.map { "\($0.row)" } ?? "-")→\(newIndexPath.map { "\($0.row)" } ?? "-")")
        }
        func take() -> [String] {
            defer { changes = [] }
            return changes
        }
    }

    func titlesAndOrders(_ controller: FetchedResultsController<Item>, _ fixture: ListsFixture) throws -> [String] {
        try fixture.lists.session.read { _ in (controller.fetchedObjects ?? []).map { "\($0.title)\($0.order)" } }
    }

    @Test(arguments: StoreKind.allCases)
    func movingARowReportsAMoveAndKeepsOrdersContiguous(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let list = try fixture.add("Groceries")[0]
        let items = try fixture.add("A", "B", "C", "D", "E", to: list)
        let controller = try fixture.lists.controller(for: list, batchSize: 2)
        let recorder = Recorder()
        try fixture.session.read { _ in
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.fetchRequest.fetchBatchSize == 2)
        }
        #expect(try titlesAndOrders(controller, fixture) == ["A0", "B1", "C2", "D3", "E4"])

        try fixture.lists.move(items[0], toIndex: 3)
        let changes = try fixture.session.read { _ in recorder.take() }
        #expect(changes.contains("move A 0→3"))
        #expect(!changes.contains { $0.hasPrefix("insert") || $0.hasPrefix("delete") })
        #expect(try titlesAndOrders(controller, fixture) == ["B0", "C1", "D2", "A3", "E4"])

        #expect(try fixture.session.undo() == "Move “A”")
        let undone = try fixture.session.read { _ in recorder.take() }
        #expect(undone.contains("move A 3→0"))
        #expect(!undone.contains { $0.hasPrefix("insert") || $0.hasPrefix("delete") })
        #expect(try titlesAndOrders(controller, fixture) == ["A0", "B1", "C2", "D3", "E4"])
    }

    @Test(arguments: StoreKind.allCases)
    func addDeleteAndMoveAwayAreInsertsAndDeletes(kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        let lists = try fixture.add("One", "Two")
        let items = try fixture.add("A", "B", "C", to: lists[0])
        let controller = try fixture.lists.controller(for: lists[0])
        let recorder = Recorder()
        try fixture.session.read { _ in
            controller.delegate = recorder
            try controller.performFetch()
        }
        try fixture.lists.add("D", to: lists[0])
        #expect(try fixture.session.read { _ in recorder.take() } == ["insert D -→3"])
        try fixture.lists.delete(items[0])
        let deleted = try fixture.session.read { _ in recorder.take() }
        #expect(deleted.contains("delete A 0→-") && deleted.count(where: { $0.hasPrefix("delete") }) == 1)
        try fixture.lists.move(items[1], to: lists[1])
        let moved = try fixture.session.read { _ in recorder.take() }
        #expect(moved.contains("delete B 0→-") && !moved.contains { $0.hasPrefix("insert") })
        #expect(try titlesAndOrders(controller, fixture) == ["C0", "D1"])
    }
}
