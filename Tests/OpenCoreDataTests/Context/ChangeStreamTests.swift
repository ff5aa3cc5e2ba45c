import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// `context.changes` and `context.saves`: one `ObjectChanges` per event / per save, fed
/// only while iterated, ending when the context is deallocated.
@Suite struct ChangeStreamTests {
    @Test(arguments: StoreKind.allCases)
    func changesHasOneElementPerEventWithChangedKeys(kind: StoreKind) async throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        nonisolated(unsafe) let unsafeStack = stack
        let (aID, bID) = try context.performAndWait {
            let a = stack.insert("Item", ["title": "a"])
            let b = stack.insert("Item", ["title": "b"])
            try context.save()
            return (a.objectID, b.objectID)
        }
        var changes = context.changes.makeAsyncIterator()
        let insertedID = try await context.perform {
            let a = try context.existingObject(with: aID)
            a.setValue("a2", forKey: "title")
            a.setValue(Int64(3), forKey: "order")
            context.delete(try context.existingObject(with: bID))
            return unsafeStack.insert("Item", ["title": "c"]).objectID
        }
        let first = try #require(await changes.next())
        #expect(first == ObjectChanges(inserted: [insertedID], updated: [aID], deleted: [bID], changedKeys: [aID: ["title", "order"]]))

        try await context.perform { context.reset() }
        let second = try #require(await changes.next())
        #expect(second == ObjectChanges(invalidatedAll: true))
    }

    @Test(arguments: StoreKind.allCases)
    func savesHasOneElementPerSaveWithPermanentIDs(kind: StoreKind) async throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        nonisolated(unsafe) let unsafeStack = stack
        var saves = context.saves.makeAsyncIterator()
        let firstIDs = try await context.perform {
            let a = unsafeStack.insert("Item", ["title": "a"])
            let b = unsafeStack.insert("Item", ["title": "b"])
            try context.save()
            return [a.objectID, b.objectID]
        }
        let first = try #require(await saves.next())
        #expect(first == ObjectChanges(inserted: Set(firstIDs)))
        #expect(first.inserted.allSatisfy { !$0.isTemporaryID })

        try await context.perform {
            let a = try context.existingObject(with: firstIDs[0])
            a.setValue("a2", forKey: "title")
            try context.save()
            try context.save()  // nothing to save: no element
            context.delete(try context.existingObject(with: firstIDs[1]))
            try context.save()
        }
        #expect(await saves.next() == ObjectChanges(updated: [firstIDs[0]], changedKeys: [firstIDs[0]: ["title"]]))
        #expect(await saves.next() == ObjectChanges(deleted: [firstIDs[1]]))
    }

    /// The streams hold no reference to the context: iterators end once it is gone, and
    /// one made afterwards ends at once.
    @Test func iterationEndsWhenTheContextIsDeallocated() async throws {
        let stack = try TestStack(model: Models.nestedList())
        var context: ManagedObjectContext? = stack.newContext()
        let sequence = try #require(context).changes
        let saves = try #require(context).saves
        var changes = sequence.makeAsyncIterator()
        var savesIterator = saves.makeAsyncIterator()
        try #require(context).performAndWait {
            _ = EntityDescription.insertNewObject(forEntityName: "Item", into: context!)
            context!.processPendingChanges()
        }
        weak let weakContext = context
        context = nil
        #expect(weakContext == nil)
        #expect(await changes.next()?.inserted.count == 1)  // what was delivered before stays
        #expect(await changes.next() == nil)
        #expect(await savesIterator.next() == nil)
        var late = sequence.makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    /// Only iterators make the context convert its events: none before the first, and
    /// none after the last is dropped.
    @Test func theStreamsAreFedOnlyWhileIterated() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        #expect(!context.streams.isObservingChanges && !context.streams.isObservingSaves)
        do {
            var iterator = context.changes.makeAsyncIterator()
            #expect(context.streams.isObservingChanges)
            #expect(!context.streams.isObservingSaves)
            try await context.perform { _ = EntityDescription.insertNewObject(forEntityName: "Item", into: context) }
            #expect(await iterator.next()?.inserted.count == 1)
        }
        #expect(!context.streams.isObservingChanges)
    }

    /// A cancelled task's iteration ends and stops being fed.
    @Test func cancellingTheIteratingTaskEndsIt() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        let sequence = context.changes
        let task = Task {
            var count = 0
            for await _ in sequence { count += 1 }
            return count
        }
        task.cancel()
        #expect(await task.value == 0)
        #expect(!context.streams.isObservingChanges)
    }

    /// docs/notifications.md's example, run.
    @Test func theNotificationsDocExampleRuns() async throws {
        let stack = try TestStack(model: Models.nestedList())
        let coordinator = stack.coordinator
        // example: notifications
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator

        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { note in
            let inserted = note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
            print("inserted:", inserted?.count ?? 0)                  // inserted: 1
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        var saves = context.saves.makeAsyncIterator()
        try await context.perform {
            let milk = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            milk.setValue("Milk", forKey: "title")
            try context.save()                                    // did-change, will-save, did-save, did-save IDs
        }
        let saved = await saves.next()
        print("saved:", saved?.inserted.count ?? 0)                // saved: 1, with permanent IDs
        // end example
        #expect(saved?.inserted.count == 1)
        #expect(saved?.inserted.allSatisfy { !$0.isTemporaryID } == true)
        #expect(DocExample.mismatch(doc: "notifications.md", name: "notifications") == nil)
    }
}
