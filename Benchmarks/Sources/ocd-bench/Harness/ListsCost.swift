import EditingSession
import Foundation
import ListsKit
import OpenCoreData

/// `--lists-cost`: a nested list of N items (default 10,000) in one list, used as a page
/// would use it through ListsKit. Builds the list once (one save), then per pass times:
/// opening it (a new session, the list's controller fetched with batching, its first page
/// of 50 rows read as values), the first page through `rows(in:offset:limit:)`, and on a
/// session with a live controller: adding an item, moving a row from the middle to the top
/// (N/2 siblings renumbered), deleting one from the middle (N/2 renumbered) and undoing
/// that delete — each one action saved at once, the controller's batch delivered.
/// Reports medians.
enum ListsCost {
    /// Counts the controller's callbacks, so that a lost batch shows.
    final class Counter: FetchedResultsControllerDelegate {
        var changes = 0
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            changes += 1
        }
    }

    static let pageSize = 50

    static func run(items: Int, passes: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-lists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try NestedList.model())
        try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("lists.sqlite"))
        let (list, built) = try Stopwatch.time { try build(items: items, coordinator: coordinator) }
        ParentMain.log("lists: built \(items) items in \(ResultsTable.format(built)) s")

        var timings: [String: [Double]] = [:]
        func time(_ name: String, _ body: () throws -> Void) rethrows {
            timings[name, default: []].append(try Stopwatch.time(body).seconds)
        }
        let lists = try openSession(coordinator)
        let controller = try lists.controller(for: list)
        let counter = Counter()
        try lists.session.read { _ in
            controller.delegate = counter
            try controller.performFetch()
        }
        for pass in 1 ... passes {
            try time("open") {
                let fresh = try openSession(coordinator)
                let page = try fresh.session.read { _ in
                    let opened = try fresh.controller(for: list)
                    try opened.performFetch()
                    return (opened.fetchedObjects ?? []).prefix(pageSize).compactMap(fresh.row(for:))
                }
                guard page.count == pageSize else { throw Options.Invalid(description: "lists cost: the first page has \(page.count) rows") }
            }
            try time("page") { _ = try lists.rows(in: list, offset: 0, limit: pageSize) }
            let before = counter.changes
            try time("add") { try lists.add("Added \(pass)", to: list) }
            let middle = try lists.rows(in: list, offset: items / 2, limit: 2)
            try time("move") { try lists.move(middle[0].reference, toIndex: 0) }
            try time("delete") { try lists.delete(middle[1].reference) }
            try time("undo") { _ = try lists.session.undo() }
            guard counter.changes > before else { throw Options.Invalid(description: "lists cost: the controller reported no change") }
            let orders = try lists.session.read { _ in (controller.fetchedObjects ?? []).map(\.order) }
            guard orders == (0 ..< Int64(orders.count)).map({ $0 }) else { throw Options.Invalid(description: "lists cost: orders are not contiguous") }
            ParentMain.log("lists pass \(pass)/\(passes): " + ["open", "page", "add", "move", "delete", "undo"].map { "\($0) \(ResultsTable.format(timings[$0]?.last ?? 0)) s" }.joined(separator: ", "))
        }

        let rows: [(String, String)] = [
            ("open", "open the list: new session, controller performFetch (batch size \(NestedList.defaultBatchSize)), first \(pageSize) rows as values"),
            ("page", "first \(pageSize) rows through rows(in:offset:limit:)"),
            ("add", "add an item (one action: checked, saved, controller batch delivered)"),
            ("move", "move a row from the middle to the top (\(items / 2) siblings renumbered)"),
            ("delete", "delete a row from the middle (\(items / 2) later siblings renumbered)"),
            ("undo", "undo that delete (saved)"),
        ]
        return ([
            "## ListsKit: one list of \(items) items (\(passes) passes)",
            "",
            "Built in \(ResultsTable.format(built)) s (one save).",
            "",
            "| | median s | min–max s |",
            "|---|---|---|",
        ] + rows.map { key, label in
            let values = timings[key] ?? []
            return "| \(label) | \(ResultsTable.format(Results.median(values) ?? 0)) | \(ResultsTable.format(values.min() ?? 0))–\(ResultsTable.format(values.max() ?? 0)) |"
        }).joined(separator: "\n")
    }

    static func openSession(_ coordinator: PersistentStoreCoordinator) throws -> NestedList {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return try NestedList(session: EditingSession(context: context))
    }

    /// One list of `items` items under the root, saved at once (not an action).
    static func build(items: Int, coordinator: PersistentStoreCoordinator) throws -> Reference<Item> {
        let lists = try openSession(coordinator)
        let list = try lists.add("Long list", to: lists.root).reference
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let request = FetchRequest<Item>()
            request.predicate = try CDPredicate(format: "parent != nil")
            guard let parent = try context.fetch(request).first else { throw Options.Invalid(description: "lists cost: no list") }
            for number in 0 ..< items {
                let item = Item(context: context)
                item.title = "Item \(number)"
                item.order = Int64(number)
                item.parent = parent
            }
            try context.save()
        }
        return list
    }
}
