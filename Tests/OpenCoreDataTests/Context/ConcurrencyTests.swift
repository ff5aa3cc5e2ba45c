import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct ConcurrencyTests {
    @Test func performAndWaitReturnsRethrowsAndRunsInlineWhenNested() throws {
        let stack = try TestStack(model: Models.nestedList())
        let value = stack.context.performAndWait { 42 }
        #expect(value == 42)
        struct Oops: Error {}
        #expect(throws: Oops.self) { try stack.context.performAndWait { throw Oops() } }
        let nested = stack.context.performAndWait { stack.context.performAndWait { stack.context.isOnQueue } }
        #expect(nested)
        #expect(!stack.context.isOnQueue)
    }

    @Test func asyncPerformReturnsTheBlocksValue() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        let count = try await context.perform {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("async", forKey: "title")
            try context.save()
            return try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
        }
        #expect(count == 1)
    }

    @Test func contextsOnManyThreadsShareOneCoordinator() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let coordinator = stack.coordinator
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = ManagedObjectContext(concurrencyType: .privateQueue)
                    context.persistentStoreCoordinator = coordinator
                    try await context.perform {
                        for index in 0..<25 {
                            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                            item.setValue("w\(worker)-\(index)", forKey: "title")
                            if index % 5 == 4 { try context.save() }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let context = stack.context
        let total = try await context.perform {
            try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
        }
        #expect(total == 100)
        let keys = try SQLiteInspector(stack.storeURL!).strings("SELECT count(DISTINCT Z_PK) FROM ZITEM")
        #expect(keys == ["100"])
    }

    @Test func objectIDsCrossThreads() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let id: ManagedObjectID = try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "shared"])
            try stack.context.save()
            return item.objectID
        }
        let other = stack.newContext()
        let title = try await other.perform { try other.existingObject(with: id).value(forKey: "title") as? String }
        #expect(title == "shared")
    }

    @Test func mainQueueContextNeedsNoPerformOnTheMainThread() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let coordinator = stack.coordinator
        let title = try await MainActor.run {
            let context = ManagedObjectContext(concurrencyType: .mainQueue)
            context.persistentStoreCoordinator = coordinator
            #expect(context.isOnQueue)
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("main", forKey: "title")
            try context.save()
            return item.value(forKey: "title") as? String
        }
        #expect(title == "main")
    }
}
