import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// The controller's API: sections, index paths, index titles, errors, the callbacks of
/// concrete changes, the delegate's forms, related objects, tracking and the cache.
@Suite struct FetchedResultsControllerTests {
    /// Records the per-change callbacks as text.
    final class Recorder: FetchedResultsControllerDelegate {
        var calls: [String] = []
        var reporting: FetchedResultsChangeReporting = .perChange
        var differences: [CollectionDifference<ManagedObjectID>] = []
        var titles: [String: String] = [:]
        var changeReporting: FetchedResultsChangeReporting { reporting }

        func controllerWillChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) { calls.append("will") }
        func controllerDidChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) { calls.append("did") }
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
            calls.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
        }
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            let title = (anObject as ManagedObject).value(forKey: "title") as? String ?? "?"
            calls.append("\(type) \(title) \(indexPath.map { "\($0.section).\($0.row)" } ?? "-") \(newIndexPath.map { "\($0.section).\($0.row)" } ?? "-")")
        }
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
            differences.append(difference)
        }
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, sectionIndexTitleForSectionName sectionName: String) -> String? {
            titles[sectionName]
        }
    }

    /// Tasks in groups A and B; sorted by group, then rank.
    static func stack(_ kind: StoreKind) throws -> (TestStack, FetchedResultsController<ManagedObject>) {
        let stack = try TestStack(model: TaskModel.make(), kind: kind)
        for (title, group, rank) in [("a1", "A", 1), ("a2", "A", 2), ("b1", "b", 1), ("b2", "b", 2), ("b3", "b", 3)] {
            _ = stack.insert("Task", ["title": title, "group": group, "rank": Int64(rank)])
        }
        try stack.context.save()
        let request = FetchRequest<ManagedObject>(entityName: "Task")
        request.sortDescriptors = [CDSortDescriptor(key: "group"), CDSortDescriptor(key: "rank")]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: "group", cacheName: nil)
        return (stack, controller)
    }

    static func task(_ stack: TestStack, _ title: String) throws -> ManagedObject {
        try #require(try stack.fetch("Task", "title == %@", title).first)
    }

    @Test(arguments: StoreKind.allCases)
    func sectionsIndexPathsAndIndexTitles(_ kind: StoreKind) throws {
        let (stack, controller) = try Self.stack(kind)
        try stack.context.performAndWait {
            #expect(controller.fetchedObjects == nil && controller.sections == nil)
            try controller.performFetch()
            let sections = try #require(controller.sections)
            #expect(sections.map(\.name) == ["A", "b"])
            #expect(sections.map(\.numberOfObjects) == [2, 3])
            #expect(sections[1].objects.map { $0.value(forKey: "title") as? String } == ["b1", "b2", "b3"])
            #expect(sections.map(\.indexTitle) == ["A", "B"])
            #expect(controller.sectionIndexTitles == ["A", "B"])
            #expect(controller.section(forSectionIndexTitle: "B", at: 1) == 1)
            #expect(controller.section(forSectionIndexTitle: "Z", at: 7) == 1)
            let b2 = try Self.task(stack, "b2")
            #expect(controller.indexPath(forObject: b2) == IndexPath(row: 1, section: 1))
            #expect(controller.object(at: IndexPath(row: 1, section: 1)) === b2)
            #expect(controller.indexPath(forObject: stack.insert("Task", ["title": "new", "group": "A"])) == nil)

            // The delegate's index title wins over the default.
            let recorder = Recorder()
            recorder.titles = ["b": "β"]
            controller.delegate = recorder
            #expect(controller.sectionIndexTitles == ["A", "β"])
        }
    }

    @Test func indexPathHasRowAndSection() {
        var path = IndexPath(row: 3, section: 2)
        #expect(path.row == 3 && path.section == 2 && path == IndexPath(indexes: [2, 3]))
        path.row = 4
        #expect(path == IndexPath(indexes: [2, 4]))
    }

    /// Core Data: "An instance of NSFetchedResultsController requires a fetch request with
    /// sort descriptors", and "The fetched object at index … has an out of order section
    /// name … Objects must be sorted by section name" — typed errors here.
    @Test func badRequestsThrowTypedErrors() throws {
        let (stack, controller) = try Self.stack(.inMemory)
        try stack.context.performAndWait {
            let unsorted = FetchRequest<ManagedObject>(entityName: "Task")
            let noSort = FetchedResultsController(fetchRequest: unsorted, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            let error = try #require(throws: CoreDataError.self) { try noSort.performFetch() }
            #expect(error.code == .invalidFetchRequest)

            // Sections by group, sorted by rank only: group A returns after b began.
            controller.fetchRequest.sortDescriptors = [CDSortDescriptor(key: "rank")]
            let order = try #require(throws: CoreDataError.self) { try controller.performFetch() }
            #expect(order.code == .invalidFetchRequest && order.key == "group")
            #expect(order.message.contains("out of order section name"))
            #expect(controller.fetchedObjects == nil)

            let unknown = FetchedResultsController(fetchRequest: controller.fetchRequest, managedObjectContext: stack.context, sectionNameKeyPath: "nope", cacheName: nil)
            #expect(throws: CoreDataError.self) { try unknown.performFetch() }
        }
    }

    /// One event with a new section, a move across sections, the last object of a section
    /// deleted and a change of a key nothing sorts by: section changes first, deletes at
    /// old index paths, inserts at new ones, moves with both, the update at its old one.
    @Test(arguments: StoreKind.allCases)
    func oneEventsCallbacks(_ kind: StoreKind) throws {
        let (stack, controller) = try Self.stack(kind)
        let recorder = Recorder()
        try stack.context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            // (Fetches end events: read the objects first.)
            let (a1, a2, b3) = (try Self.task(stack, "a1"), try Self.task(stack, "a2"), try Self.task(stack, "b3"))
            _ = stack.insert("Task", ["title": "c1", "group": "c", "rank": Int64(1)])
            a1.setValue("b", forKey: "group")
            a2.setValue("b", forKey: "group")
            b3.setValue(true, forKey: "done")
            stack.context.processPendingChanges()
            #expect(recorder.calls == [
                "will", "section delete 0 A", "section insert 1 c",
                "insert c1 - 1.0", "move a1 0.0 0.0", "move a2 0.1 0.2", "update b3 1.2 -", "did",
            ])
            #expect(controller.sections?.map(\.name) == ["b", "c"])
            #expect(controller.fetchedObjects?.map { $0.value(forKey: "title") as? String } == ["a1", "b1", "a2", "b2", "b3", "c1"])
        }
    }

    /// With `.difference`, per-change callbacks stop; after a save the difference
    /// replaces the temporary IDs with the permanent ones.
    @Test(arguments: StoreKind.allCases)
    func differenceFormReportsPermanentIDs(_ kind: StoreKind) throws {
        let (stack, controller) = try Self.stack(kind)
        let recorder = Recorder()
        recorder.reporting = .difference
        try stack.context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            var ids = controller.fetchedObjects?.map(\.objectID) ?? []
            let new = stack.insert("Task", ["title": "a0", "group": "A", "rank": Int64(0)])
            stack.context.processPendingChanges()
            try stack.context.save()
            #expect(recorder.calls.isEmpty)
            #expect(recorder.differences.count == 2)
            for difference in recorder.differences { ids = try #require(ids.applying(difference)) }
            #expect(!new.objectID.isTemporaryID)
            #expect(ids == controller.fetchedObjects?.map(\.objectID))
        }
    }

    /// Sorted by `project.name`, a project is renamed: Core Data's controller does not
    /// notice; with `observesRelatedObjects` the tasks move.
    @Test(arguments: [false, true])
    func relatedObjectsAreObservedOnlyWhenAsked(_ observes: Bool) throws {
        let stack = try TestStack(model: TaskModel.make(), kind: .inMemory)
        try stack.context.performAndWait {
            let alpha = stack.insert("Project", ["name": "alpha"])
            let beta = stack.insert("Project", ["name": "beta"])
            stack.insert("Task", ["title": "x"]).setValue(alpha, forKey: "project")
            stack.insert("Task", ["title": "y"]).setValue(beta, forKey: "project")
            try stack.context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Task")
            request.sortDescriptors = [CDSortDescriptor(key: "project.name")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            #expect(controller.observesRelatedObjects == false)
            controller.observesRelatedObjects = observes
            let recorder = Recorder()
            controller.delegate = recorder
            try controller.performFetch()
            alpha.setValue("gamma", forKey: "name")
            stack.context.processPendingChanges()
            let titles = controller.fetchedObjects?.map { $0.value(forKey: "title") as? String }
            #expect(titles == (observes ? ["y", "x"] : ["x", "y"]))
            #expect(recorder.calls == (observes ? ["will", "move x 0.0 0.1", "did"] : []))
        }
    }

    /// The context holds the controller weakly; without a delegate the controller stops
    /// following changes, and a new delegate needs `performFetch()` when it missed some.
    @Test func trackingNeedsADelegateAndTheContextDoesNotKeepTheController() throws {
        let (stack, controller) = try Self.stack(.inMemory)
        weak var weakController: FetchedResultsController<ManagedObject>?
        // Every context has consumers of its own (its did-change notification): count the controllers' on top.
        let base = stack.context.performAndWait { stack.context.changeConsumers.count }
        try stack.context.performAndWait {
            var recorder: Recorder? = Recorder()
            controller.delegate = recorder
            try controller.performFetch()
            recorder = nil
            #expect(controller.delegate == nil)
            _ = stack.insert("Task", ["title": "a3", "group": "A", "rank": Int64(3)])
            stack.context.processPendingChanges()
            #expect(controller.fetchedObjects?.count == 5)
            #expect(stack.context.changeConsumers.count == base)
            let second = Recorder()
            controller.delegate = second
            #expect(stack.context.changeConsumers.count == base)
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 6)
            #expect(stack.context.changeConsumers.count == base + 1)

            var temporary: FetchedResultsController<ManagedObject>? = FetchedResultsController(
                fetchRequest: controller.fetchRequest, managedObjectContext: stack.context, sectionNameKeyPath: nil, cacheName: nil)
            temporary?.delegate = second
            try temporary?.performFetch()
            weakController = temporary
            #expect(stack.context.changeConsumers.count == base + 2)
            temporary = nil
            #expect(weakController == nil)
            #expect(stack.context.changeConsumers.count == base + 1)
        }
    }

    /// The section cache: kept per name while a controller uses it, reused by a later
    /// `performFetch()` of the same request, gone after `deleteCache(withName:)`.
    @Test func sectionCacheIsKeptAndDeleted() throws {
        let (stack, plain) = try Self.stack(.inMemory)
        let name = "cache-\(UUID().uuidString)"
        try stack.context.performAndWait {
            let controller = FetchedResultsController(fetchRequest: plain.fetchRequest, managedObjectContext: stack.context, sectionNameKeyPath: "group", cacheName: name)
            try controller.performFetch()
            #expect(FetchedResultsCache.shared.contains(name))
            try controller.performFetch()
            #expect(controller.sections?.map(\.numberOfObjects) == [2, 3])
            FetchedResultsController<ManagedObject>.deleteCache(withName: name)
            #expect(!FetchedResultsCache.shared.contains(name))
        }
    }

    /// The doc's example (docs/fetched-results-controller.md).
    @Test func theDocExampleRuns() throws {
        let stack = try TestStack(model: TaskModel.make(), kind: .sqlite)
        let context = stack.context
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        try context.performAndWait {
            // example: fetched-results-controller
            final class Printer: FetchedResultsControllerDelegate {
                let print: (String) -> Void
                init(print: @escaping (String) -> Void) { self.print = print }

                func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
                    print("section \(type) \(sectionIndex) \(sectionInfo.name)")
                }

                func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
                    let title = anObject.value(forKey: "title") as? String ?? ""
                    print("\(type) \(title) \(indexPath.map { "\($0.section).\($0.row)" } ?? "-") → \(newIndexPath.map { "\($0.section).\($0.row)" } ?? "-")")
                }
            }

            for (title, group) in [("Milk", "Groceries"), ("Bread", "Groceries"), ("Taxes", "Home")] {
                let task = EntityDescription.insertNewObject(forEntityName: "Task", into: context)
                task.setValue(title, forKey: "title")
                task.setValue(group, forKey: "group")
            }
            try context.save()

            let request = FetchRequest<ManagedObject>(entityName: "Task")
            request.predicate = try CDPredicate(format: "done == NO")
            request.sortDescriptors = [CDSortDescriptor(key: "group"), CDSortDescriptor(key: "title")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                      sectionNameKeyPath: "group", cacheName: nil)
            let printer = Printer(print: { print($0) })
            controller.delegate = printer
            try controller.performFetch()
            print("\(controller.sections!.map { "\($0.name): \($0.numberOfObjects)" })")

            let taxes = controller.object(at: IndexPath(row: 0, section: 1))
            taxes.setValue(true, forKey: "done")           // leaves the predicate: Home empties
            let eggs = EntityDescription.insertNewObject(forEntityName: "Task", into: context)
            eggs.setValue("Eggs", forKey: "title")
            eggs.setValue("Groceries", forKey: "group")
            try context.save()                             // the event ends; the delegate prints
            // end example
            _ = printer
        }
        #expect(printed == [
            "[\"Groceries: 2\", \"Home: 1\"]",
            "section delete 1 Home",
            "delete Taxes 1.0 → -",
            "insert Eggs - → 0.1",
        ])
        #expect(DocExample.mismatch(doc: "fetched-results-controller.md", name: "fetched-results-controller") == nil)
    }
}
