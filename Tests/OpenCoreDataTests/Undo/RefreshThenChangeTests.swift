import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// A change made after `refresh(_:mergeChanges: false)` in the same event: the refresh
/// starts a new baseline, so the change is undoable and notified, and undo goes back to
/// the refreshed values, not to the stale ones.
@Suite struct RefreshThenChangeTests {
    @Test(arguments: StoreKind.allCases)
    func aChangeAfterARefreshInTheSameEventIsUndoneToTheRefreshedValues(_ kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let item = try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "Milk"])
            try stack.context.save()
            return item
        }
        let other = stack.newContext()
        try other.performAndWait {
            try other.existingObject(with: item.objectID).setValue("Skimmed", forKey: "title")
            try other.save()
        }
        try stack.context.performAndWait {
            let undoManager = CDUndoManager()
            stack.context.undoManager = undoManager
            let recorder = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: stack.context)

            stack.context.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "title") as? String == "Skimmed")
            item.setValue("Oat milk", forKey: "title")
            stack.context.processPendingChanges()

            let info = try #require(recorder.notifications.last?.userInfo)
            #expect((info[ManagedObjectContext.NotificationKey.updatedObjects.rawValue] as? Set<ManagedObject>)?.contains(item) == true)
            #expect((info[ManagedObjectContext.NotificationKey.refreshedObjects.rawValue] as? Set<ManagedObject>)?.contains(item) == true)
            #expect(undoManager.canUndo)
            stack.context.undo()
            #expect(item.value(forKey: "title") as? String == "Skimmed")
            stack.context.redo()
            #expect(item.value(forKey: "title") as? String == "Oat milk")
        }
    }
}
