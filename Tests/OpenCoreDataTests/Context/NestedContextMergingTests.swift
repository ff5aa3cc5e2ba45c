import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// `automaticallyMergesChangesFromParent` on a child context merges what its siblings
/// save into the shared parent — Core Data: "changes saved to its … parent context".
@Suite struct NestedContextMergingTests {
    @Test(arguments: StoreKind.allCases)
    func aChildMergesWhatItsSiblingsSaveIntoTheParent(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let x = try stack.context.performAndWait {
            let x = stack.insert("Item", ["title": "x"])
            _ = stack.insert("Item", ["title": "gone"])
            try stack.context.save()
            return x.objectID
        }
        func child() -> ManagedObjectContext {
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = stack.context
            return child
        }
        let (writer, reader, bystander) = (child(), child(), child())
        reader.automaticallyMergesChangesFromParent = true
        let all = FetchRequest<ManagedObject>(entityName: "Item")
        let held = try [reader, bystander].map { context in try context.performAndWait { try context.fetch(all) } }
        defer { withExtendedLifetime(held) {} }
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: reader)

        let inserted = try writer.performAndWait {
            let objects = try writer.fetch(all)
            objects.first { $0.objectID == x }?.setValue("x-writer", forKey: "title")
            if let gone = objects.first(where: { $0.value(forKey: "title") as? String == "gone" }) { writer.delete(gone) }
            let new = EntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            new.setValue("new", forKey: "title")
            try writer.save()
            return new.objectID
        }
        reader.performAndWait {}  // the merge was queued on the reader by the writer's save

        let titles = { (context: ManagedObjectContext) in
            context.performAndWait { context.registeredObjects.filter { !$0.isDeleted }.compactMap { $0.value(forKey: "title") as? String }.sorted() }
        }
        #expect(titles(reader) == ["new", "x-writer"])
        #expect(titles(bystander) == ["gone", "x"], "a child that does not merge keeps what it read")
        let merged = try #require(changes.notifications.last?.userInfo)
        let insertedIDs = (merged[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>)?.map(\.objectID)
        #expect(insertedIDs == [inserted])
        #expect(stack.context.performAndWait { stack.context.hasChanges }, "the store is not written until the parent saves")
    }
}
