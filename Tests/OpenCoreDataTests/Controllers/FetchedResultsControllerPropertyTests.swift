import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// Random sequences of edits, several per event; after each event, the table model that
/// applied the delegate's batches (or difference, or snapshot) must equal a fresh fetch.
@Suite struct FetchedResultsControllerPropertyTests {
    struct Config: CustomTestStringConvertible, Sendable {
        let kind: StoreKind
        let sectioned: Bool
        let reporting: FetchedResultsChangeReporting
        let events: Int
        var testDescription: String { "\(kind) \(sectioned ? "sectioned" : "flat") \(reporting) ×\(events)" }
    }

    static let configs: [Config] = [FetchedResultsChangeReporting.perChange, .difference, .snapshot].flatMap { reporting in
        [false, true].flatMap { sectioned in
            [Config(kind: .inMemory, sectioned: sectioned, reporting: reporting, events: 400),
             Config(kind: .sqlite, sectioned: sectioned, reporting: reporting, events: 60)]
        }
    }

    @Test(arguments: configs)
    func batchesEqualAFreshFetch(_ config: Config) throws {
        var random = SeededRandom.fromEnvironment(for: "FetchedResultsControllerPropertyTests \(config.testDescription)")
        let stack = try TestStack(model: TaskModel.make(), kind: config.kind)
        var run = Run(stack: stack, config: config)
        try stack.context.performAndWait {
            try run.start(&random)
            for event in 0 ..< config.events {
                let step = try run.event(&random)
                if let problem = try run.check() {
                    Issue.record("seed \(random.seed), event \(event) (\(step)): \(problem)")
                    return
                }
            }
            #expect(run.table.batches > config.events / 4, "too few batches: \(run.table.batches)")
        }
    }

    /// One run: the stack, the controller, the table model and the objects the test holds.
    struct Run {
        let stack: TestStack
        let config: Config
        let request: FetchRequest<ManagedObject>
        let controller: FetchedResultsController<ManagedObject>
        let table: TableModel<ObjectIdentifier>
        var tasks: [ManagedObject] = []
        var projects: [ManagedObject] = []
        var counter = 0

        init(stack: TestStack, config: Config) {
            self.stack = stack
            self.config = config
            request = FetchRequest<ManagedObject>(entityName: "Task")
            request.predicate = try? CDPredicate(format: "done == NO AND (project == nil OR project.active == YES)")
            request.sortDescriptors = config.sectioned
                ? [CDSortDescriptor(key: "group"), CDSortDescriptor(key: "project.name", ascending: false), CDSortDescriptor(key: "rank"), CDSortDescriptor(key: "title")]
                : [CDSortDescriptor(key: "rank")]
            controller = FetchedResultsController(fetchRequest: request, managedObjectContext: stack.context,
                                                  sectionNameKeyPath: config.sectioned ? "group" : nil, cacheName: nil)
            controller.observesRelatedObjects = true
            table = TableModel(reporting: config.reporting) { ObjectIdentifier($0) }
        }

        var context: ManagedObjectContext { stack.context }

        mutating func start(_ random: inout SeededRandom) throws {
            for _ in 0 ..< 4 { insertProject(&random) }
            for _ in 0 ..< 30 { insertTask(&random) }
            try context.save()
            controller.delegate = table
            try controller.performFetch()
            table.sections = (controller.sections ?? []).map { ($0.name, $0.objects.map(ObjectIdentifier.init)) }
            table.flat = (controller.fetchedObjects ?? []).map(\.objectID)
            table.snapshot = controller.snapshot
        }

        // MARK: - Steps

        /// One event: a save, rollback, reset, merge from another context, a child
        /// context's save into this one, or one to four edits; then
        /// `processPendingChanges()`. Returns what it did.
        mutating func event(_ random: inout SeededRandom) throws -> String {
            let roll = Double.random(in: 0 ..< 1, using: &random)
            var step: String
            if roll < 0.10 {
                try context.save()
                step = "save"
            } else if roll < 0.13 {
                context.rollback()
                reloadHandles()
                step = "rollback"
            } else if roll < 0.14 {
                context.reset()
                reloadHandles()
                step = "reset"
            } else if roll < 0.19 {
                step = try mergeFromAnotherContext(&random)
            } else if roll < 0.24 {
                step = try childSave(&random)
            } else if roll < 0.26 {
                let some = Array(tasks.filter(\.isInserted).prefix(3))
                try context.obtainPermanentIDs(for: some)
                step = "obtainPermanentIDs(\(some.count))"
            } else {
                step = (0 ..< Int.random(in: 1 ... 4, using: &random)).map { _ in edit(&random) }.joined(separator: ", ")
            }
            context.processPendingChanges()
            return step
        }

        mutating func edit(_ random: inout SeededRandom) -> String {
            let live = tasks.filter(isLive)
            let liveProjects = projects.filter(isLive)
            guard let task = live.isEmpty ? nil : random.pick(live) else {
                insertTask(&random)
                return "insert"
            }
            switch Int.random(in: 0 ..< 13, using: &random) {
            case 0, 1:
                insertTask(&random)
                return "insert"
            case 2:
                context.delete(task)
                return "delete"
            case 3, 4:
                task.setValue(Int64.random(in: 0 ..< 12, using: &random), forKey: "rank")
                return "rank"
            case 5:
                task.setValue(random.pick(["A", "B", "C", "D"]), forKey: "group")
                return "group"
            case 6:
                task.setValue(!(task.value(forKey: "done") as? Bool ?? false), forKey: "done")
                return "done"
            case 7:
                task.setValue(liveProjects.isEmpty || random.chance(0.2) ? nil : random.pick(liveProjects), forKey: "project")
                return "reparent"
            case 8:
                counter += 1
                task.setValue("t\(counter)", forKey: "title")
                return "title"
            case 9:
                guard let project = liveProjects.isEmpty ? nil : random.pick(liveProjects) else { return "none" }
                project.setValue(random.pick(["p", "q", "r", "s"]), forKey: "name")
                return "rename project"
            case 10:
                guard let project = liveProjects.isEmpty ? nil : random.pick(liveProjects) else { return "none" }
                project.setValue(!(project.value(forKey: "active") as? Bool ?? true), forKey: "active")
                return "toggle project"
            case 11:
                if random.chance(0.5) {
                    insertProject(&random)
                    return "insert project"
                }
                guard liveProjects.count > 2, random.chance(0.3) else { return "none" }
                context.delete(random.pick(liveProjects))
                return "delete project (cascade)"
            default:
                context.refresh(task, mergeChanges: true)
                return "refresh"
            }
        }

        mutating func insertTask(_ random: inout SeededRandom) {
            counter += 1
            let liveProjects = projects.filter(isLive)
            let task = stack.insert("Task", [
                "title": "t\(counter)", "group": random.pick(["A", "B", "C", "D"]),
                "rank": Int64.random(in: 0 ..< 12, using: &random), "done": random.chance(0.25),
            ])
            if !liveProjects.isEmpty && random.chance(0.8) { task.setValue(random.pick(liveProjects), forKey: "project") }
            tasks.append(task)
        }

        func isLive(_ object: ManagedObject) -> Bool {
            object.managedObjectContext === context && !object.isDeleted
        }

        mutating func insertProject(_ random: inout SeededRandom) {
            projects.append(stack.insert("Project", ["name": random.pick(["p", "q", "r", "s"]), "active": random.chance(0.8)]))
        }

        /// Another context on the coordinator changes and deletes saved tasks and saves;
        /// its save is merged into ours (`mergeChanges(fromRemoteContextSave:into:)`).
        /// Ours saves first, so that the merge meets no unsaved edit of the same rows.
        mutating func mergeFromAnotherContext(_ random: inout SeededRandom) throws -> String {
            try context.save()
            let ids = tasks.filter(isLive).map(\.objectID).shuffled(using: &random).prefix(4)
            guard !ids.isEmpty else { return "merge (nothing)" }
            let other = stack.newContext()
            var seed = random.next()
            let (updated, deleted) = try other.performAndWait {
                var random = SeededRandom(seed: seed)
                var updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []
                for id in ids {
                    let task = try other.existingObject(with: id)
                    switch Int.random(in: 0 ..< 4, using: &random) {
                    case 0:
                        other.delete(task)
                        deleted.append(id)
                    case 1: task.setValue(!(task.value(forKey: "done") as? Bool ?? false), forKey: "done"); updated.append(id)
                    case 2: task.setValue(random.pick(["A", "B", "C", "D"]), forKey: "group"); updated.append(id)
                    default: task.setValue(Int64.random(in: 0 ..< 12, using: &random), forKey: "rank"); updated.append(id)
                    }
                }
                // Related objects changed too (a project's tasks): merged with the rest.
                other.processPendingChanges()
                let touched = other.updatedObjects.map(\.objectID).filter { !updated.contains($0) }
                try other.save()
                return (updated + touched, deleted)
            }
            seed = random.next()
            // Inserts too: the merge registers them and lists them as inserted.
            let insertedIDs = try other.performAndWait {
                let new = (0 ..< Int(seed % 3)).map { index in
                    let task = EntityDescription.insertNewObject(forEntityName: "Task", into: other)
                    task.setValue("m\(seed % 1000)-\(index)", forKey: "title")
                    task.setValue(["A", "B", "C", "D"][Int(seed / 7 % 4)], forKey: "group")
                    task.setValue(Int64(seed / 11 % 12), forKey: "rank")
                    return task
                }
                try other.save()
                return new.map(\.objectID)
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [InsertedObjectsKey: insertedIDs, UpdatedObjectsKey: updated, DeletedObjectsKey: deleted], into: [context])
            tasks.removeAll { deleted.contains($0.objectID) }
            tasks += insertedIDs.compactMap { context.registeredObject(for: $0) }
            return "merge (\(insertedIDs.count) inserted, \(updated.count) updated, \(deleted.count) deleted)"
        }

        /// A child context of ours inserts a task, changes and deletes others (saved or
        /// not), and saves: its changes arrive here as one event of this context.
        mutating func childSave(_ random: inout SeededRandom) throws -> String {
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = context
            let ids = tasks.filter(isLive).map(\.objectID).shuffled(using: &random).prefix(3)
            var seed = random.next()
            let insertedID = try child.performAndWait {
                var random = SeededRandom(seed: seed)
                for id in ids {
                    let task = try child.existingObject(with: id)
                    switch Int.random(in: 0 ..< 4, using: &random) {
                    case 0: child.delete(task)
                    case 1: task.setValue(random.pick(["A", "B", "C", "D"]), forKey: "group")
                    case 2: task.setValue(!(task.value(forKey: "done") as? Bool ?? false), forKey: "done")
                    default: task.setValue(Int64.random(in: 0 ..< 12, using: &random), forKey: "rank")
                    }
                }
                let task = EntityDescription.insertNewObject(forEntityName: "Task", into: child)
                task.setValue("c\(seed % 1000)", forKey: "title")
                task.setValue(random.pick(["A", "B", "C", "D"]), forKey: "group")
                task.setValue(Int64.random(in: 0 ..< 12, using: &random), forKey: "rank")
                try child.save()
                return task.objectID
            }
            seed = random.next()
            if let inserted = context.registeredObject(for: insertedID) { tasks.append(inserted) }
            return "child save (\(ids.count) edited, 1 inserted)"
        }

        /// After a rollback or reset: the objects the context has now.
        mutating func reloadHandles() {
            tasks = (try? stack.fetch("Task")) ?? []
            projects = (try? stack.fetch("Project")) ?? []
        }

        // MARK: - Checking

        /// What differs between the table model and a fresh fetch, or nil.
        func check() throws -> String? {
            if !table.problems.isEmpty { return table.problems.joined(separator: "; ") }
            let fresh = try freshFetch()
            var expected: [(name: String, rows: [ManagedObject])] = []
            for object in fresh {
                let name = config.sectioned ? (object.value(forKey: "group") as? String ?? "") : ""
                if expected.last?.name == name { expected[expected.count - 1].rows.append(object) } else { expected.append((name, [object])) }
            }
            if !config.sectioned && expected.isEmpty { expected = [("", [])] }
            let controllerObjects = (controller.fetchedObjects ?? []).map(ObjectIdentifier.init)
            if controllerObjects != fresh.map(ObjectIdentifier.init) {
                return "fetchedObjects \(describe(controller.fetchedObjects ?? [])) != fresh fetch \(describe(fresh))"
            }
            switch config.reporting {
            case .perChange:
                let model = table.sections.map { "\($0.name):\($0.rows.count)" }
                let wanted = expected.map { "\($0.name):\($0.rows.count)" }
                if model != wanted { return "table sections \(model) != fresh \(wanted)" }
                for (have, want) in zip(table.sections, expected) where have.rows != want.rows.map(ObjectIdentifier.init) {
                    return "section \(want.name) differs: fresh \(describe(want.rows))"
                }
            case .difference:
                if table.flat != fresh.map(\.objectID) { return "difference-applied IDs \(table.flat) != fresh \(fresh.map(\.objectID))" }
            case .snapshot:
                let wanted = FetchedResultsSnapshot(sections: expected.map { .init(name: $0.name, objectIDs: $0.rows.map(\.objectID)) })
                if table.snapshot != wanted { return "snapshot \(String(describing: table.snapshot)) != fresh \(wanted)" }
            }
            return nil
        }

        /// The request's results now. `context.fetch(request)` evaluates the predicate in
        /// the store for objects without unsaved changes, so an unsaved change to a
        /// related object (`project.active`) is not seen there — as in Core Data. The
        /// oracle fetches every task (with unsaved ones) and filters and sorts them in
        /// memory; ties in the store's order (saved objects by primary key, new ones
        /// after them in creation order). Without unsaved changes, it must equal
        /// `context.fetch(request)`.
        func freshFetch() throws -> [ManagedObject] {
            let all = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
            let matching = all.filter { request.predicate?.evaluate(with: $0) ?? true }
                .sorted { PendingFetch.precedesInTie($0.objectID, $1.objectID) }
            let sorted = CDSortDescriptor.sort(matching, by: request.sortDescriptors ?? [])
            if !context.hasChanges {
                let fetched = try context.fetch(request)
                if fetched.map(ObjectIdentifier.init) != sorted.map(ObjectIdentifier.init) {
                    Issue.record("oracle \(describe(sorted)) != context.fetch \(describe(fetched))")
                }
            }
            return sorted
        }

        func describe(_ objects: [ManagedObject]) -> String {
            objects.map { "\($0.value(forKey: "title") as? String ?? "?")/\($0.value(forKey: "rank") as? Int64 ?? -1)" }.joined(separator: " ")
        }
    }
}
