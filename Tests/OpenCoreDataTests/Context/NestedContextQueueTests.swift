import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Child and parent contexts on different queues: a private child of a `.mainQueue`
/// parent and the reverse, used through `perform`/`performAndWait` from several threads,
/// and synchronously from a block of the other side, without deadlock.
///
/// swift-testing runs tests off the main thread; the main queue is drained meanwhile (on
/// Linux by a worker thread), so these tests are async and never block it waiting on
/// itself: main-queue work runs in `MainActor.run`.
@Suite struct NestedContextQueueTests {
    private func items(_ context: ManagedObjectContext) throws -> Int {
        try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
    }

    @Test func privateChildrenOfAMainQueueParentSaveFromSeveralThreads() async throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .sqlite)
        let coordinator = stack.coordinator
        let parent = await MainActor.run {
            let parent = ManagedObjectContext(concurrencyType: .mainQueue)
            parent.persistentStoreCoordinator = coordinator
            return parent
        }
        let children = (0..<4).map { _ in
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            return child
        }
        // Each child on its own queue, at once: insert, read through the parent, save.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, child) in children.enumerated() {
                group.addTask {
                    try await child.perform {
                        for round in 0..<5 {
                            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
                            item.setValue("child \(number) item \(round)", forKey: "title")
                            _ = try child.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
                            try child.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // A main-queue block saving a private child synchronously: the child's save calls
        // back into the main-queue parent, which this thread already holds.
        try await MainActor.run {
            try children[0].performAndWait {
                EntityDescription.insertNewObject(forEntityName: "Item", into: children[0]).setValue("from main", forKey: "title")
                try children[0].save()
            }
            #expect(parent.insertedObjects.count == 21)
            try parent.save()
        }
        #expect(try items(stack.newContext()) == 21)
        // performAndWait on the parent from a background thread waits for the main queue.
        #expect(try items(parent) == 21)
    }

    @Test func aMainQueueChildOfAPrivateParentSavesFromTheMainQueue() async throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .sqlite)
        let parent = stack.context
        let child = await MainActor.run {
            let child = ManagedObjectContext(concurrencyType: .mainQueue)
            child.parent = parent
            return child
        }
        try await MainActor.run {
            // Used directly on the main queue, as a view context is.
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            item.setValue("main", forKey: "title")
            try child.save()
        }
        // Meanwhile the parent works on its own queue from other threads.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await parent.perform {
                    #expect(parent.insertedObjects.count == 1)
                    try parent.save()
                }
            }
            group.addTask {
                let seen = try await MainActor.run { try child.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
                #expect(seen >= 1)
            }
            try await group.waitForAll()
        }
        // A private parent's block saving a child of its own synchronously (a private child
        // of the child, here): the save calls back into the parent it runs under.
        let grandchild = ManagedObjectContext(concurrencyType: .privateQueue)
        grandchild.parent = parent
        try await parent.perform {
            try grandchild.performAndWait {
                EntityDescription.insertNewObject(forEntityName: "Item", into: grandchild).setValue("nested", forKey: "title")
                try grandchild.save()
            }
            try parent.save()
        }
        #expect(try items(stack.newContext()) == 2)
        let seen = try await MainActor.run { try child.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
        #expect(seen == 2)
    }
}
