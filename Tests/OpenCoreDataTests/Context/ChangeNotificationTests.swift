import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// The context's notifications on `NotificationCenter.default`: exact `userInfo`, one
/// did-change per event (coalesced), when an event ends, and the save notifications.
@Suite struct ChangeNotificationTests {
    typealias Key = ManagedObjectContext.NotificationKey
    static let all = [ManagedObjectContext.didChangeObjectsNotification, ManagedObjectContext.willSaveObjectsNotification,
                      ManagedObjectContext.didSaveObjectsNotification, ManagedObjectContext.didSaveObjectIDsNotification]

    /// The objects under `key`, nil when the key is absent.
    static func objects(_ note: Notification, _ key: Key) -> Set<ManagedObject>? {
        note.userInfo?[key.rawValue] as? Set<ManagedObject>
    }

    static func keys(_ note: Notification) -> Set<String> {
        Set((note.userInfo ?? [:]).keys.compactMap { $0 as? String })
    }

    /// Three saved items a, b, c.
    static func saved(_ stack: TestStack) throws -> (ManagedObject, ManagedObject, ManagedObject) {
        let a = stack.insert("Item", ["title": "a"])
        let b = stack.insert("Item", ["title": "b"])
        let c = stack.insert("Item", ["title": "c"])
        try stack.context.save()
        return (a, b, c)
    }

    @Test(arguments: StoreKind.allCases)
    func didChangeListsInsertedUpdatedDeletedExactly(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let (a, b, _) = try Self.saved(stack)
            let recorder = NotificationRecorder(Self.all, object: context)
            let d = stack.insert("Item", ["title": "d"])
            a.setValue("a2", forKey: "title")
            a.setValue(Int64(4), forKey: "order")
            context.delete(b)
            context.processPendingChanges()
            #expect(recorder.names == [ManagedObjectContext.didChangeObjectsNotification])
            let note = try #require(recorder.notifications.first)
            #expect(note.object as? ManagedObjectContext === context)
            #expect(Self.keys(note) == ["inserted", "updated", "deleted"])
            #expect(Self.objects(note, .insertedObjects) == [d])
            #expect(Self.objects(note, .updatedObjects) == [a])
            #expect(Self.objects(note, .deletedObjects) == [b])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refreshedAndInvalidatedObjectsAreListed(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let (a, b, _) = try Self.saved(stack)
            let bID = b.objectID
            context.refresh(b, mergeChanges: false)  // b is a fault now, without values
            // Another context on the coordinator deletes b's row.
            let other = stack.newContext()
            try other.performAndWait {
                other.delete(try other.existingObject(with: bID))
                try other.save()
            }
            let recorder = NotificationRecorder(Self.all, object: context)
            context.refresh(a, mergeChanges: false)
            _ = b.value(forKey: "title")  // fires: the row is gone
            context.processPendingChanges()
            #expect(recorder.notifications.count == 1)
            let note = try #require(recorder.notifications.first)
            #expect(Self.keys(note) == ["refreshed", "invalidated"])
            #expect(Self.objects(note, .refreshedObjects) == [a])
            #expect(Self.objects(note, .invalidatedObjects) == [b])
        }
    }

    /// Many changes, several to the same object, in one event: one notification naming
    /// each object once; a change undone within the event is no change at all.
    @Test func changesOfOneEventAreCoalesced() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        try context.performAndWait {
            let (a, b, c) = try Self.saved(stack)
            let recorder = NotificationRecorder(Self.all, object: context)
            for round in 0..<10 { a.setValue("a\(round)", forKey: "title") }
            b.setValue("changed", forKey: "title")
            b.setValue("b", forKey: "title")  // back as it was
            c.setValue(a, forKey: "parent")   // c and, by the inverse, a
            let gone = stack.insert("Item", ["title": "gone"])
            context.delete(gone)
            context.processPendingChanges()
            context.processPendingChanges()  // nothing new: nothing posted
            #expect(recorder.notifications.count == 1)
            let note = try #require(recorder.notifications.first)
            #expect(Self.keys(note) == ["updated"])
            #expect(Self.objects(note, .updatedObjects) == [a, c])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFetchThatChangesNothingPostsNothing(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            _ = try Self.saved(stack)
            let recorder = NotificationRecorder(Self.all, object: context)
            let fetched = try stack.fetch("Item", sortedBy: "title")
            #expect(fetched.count == 3)
            _ = fetched.map { $0.value(forKey: "title") }  // firing faults is no change
            _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(recorder.notifications.isEmpty)
            // A fetch ends an open event: its changes are posted first.
            fetched[0].setValue("z", forKey: "title")
            _ = try stack.fetch("Item")
            #expect(recorder.notifications.count == 1)
            #expect(Self.objects(recorder.notifications[0], .updatedObjects) == [fetched[0]])
        }
    }

    /// As in Core Data: the end of a `perform` block ends the event; `performAndWait`
    /// does not (its changes wait for the next save, fetch, `perform` end or
    /// `processPendingChanges()`), so two `performAndWait` blocks make one event.
    @Test func theEndOfPerformPostsAndPerformAndWaitDoesNot() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        let (a, _, _) = try context.performAndWait { try Self.saved(stack) }
        let recorder = NotificationRecorder(Self.all, object: context)
        nonisolated(unsafe) let item = a
        context.performAndWait { item.setValue("one", forKey: "title") }
        context.performAndWait { item.setValue(Int64(7), forKey: "order") }
        context.performAndWait {}
        #expect(recorder.notifications.isEmpty)
        context.performAndWait { context.processPendingChanges() }
        #expect(recorder.notifications.count == 1)

        context.perform { item.setValue("two", forKey: "title") }
        context.performAndWait {}  // runs after the perform block and its event end
        #expect(recorder.notifications.count == 2)
        #expect(Self.objects(recorder.notifications[1], .updatedObjects) == [a])
        #expect(context.performAndWait { context.ledger.isEmpty })
    }

    @Test func everyNotificationIsPostedOnTheContextsQueue() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        final class Flags: @unchecked Sendable { var offQueue = 0; var seen = 0 }
        let flags = Flags()
        let tokens = Self.all.map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { _ in
                flags.seen += 1
                if !context.isOnQueue { flags.offQueue += 1 }
            }
        }
        defer { for token in tokens { NotificationCenter.default.removeObserver(token) } }
        nonisolated(unsafe) let unsafeStack = stack
        context.perform { _ = unsafeStack.insert("Item", ["title": "x"]) }
        try context.performAndWait {
            _ = stack.insert("Item", ["title": "y"])
            try context.save()
            context.reset()
        }
        #expect(flags.seen == 6)  // change (perform), change, will, did, did IDs (save), change (reset)
        #expect(flags.offQueue == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func saveNotificationsCarryTheSavedObjectsAndTheirPermanentIDs(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let (a, b, _) = try Self.saved(stack)
            let recorder = NotificationRecorder(Self.all, object: context)
            let d = stack.insert("Item", ["title": "d"])
            a.setValue("a2", forKey: "title")
            context.delete(b)
            try context.save()
            #expect(recorder.names == Self.all)  // the event's change first, then will/did save
            let didSave = recorder.notifications[2], didSaveIDs = recorder.notifications[3]
            #expect(recorder.notifications[1].userInfo == nil)
            #expect(Self.keys(didSave) == ["inserted", "updated", "deleted"])
            #expect(Self.objects(didSave, .insertedObjects) == [d])
            #expect(Self.objects(didSave, .updatedObjects) == [a])
            #expect(Self.objects(didSave, .deletedObjects) == [b])
            #expect(Self.keys(didSaveIDs) == ["inserted_objectIDs", "updated_objectIDs", "deleted_objectIDs"])
            let inserted = try #require(didSaveIDs.userInfo?[Key.insertedObjectIDs.rawValue] as? Set<ManagedObjectID>)
            #expect(inserted == [d.objectID])
            #expect(!d.objectID.isTemporaryID)
            #expect(didSaveIDs.userInfo?[Key.updatedObjectIDs.rawValue] as? Set<ManagedObjectID> == [a.objectID])
            #expect(didSaveIDs.userInfo?[Key.deletedObjectIDs.rawValue] as? Set<ManagedObjectID> == [b.objectID])

            // Only an update: the other keys are there, empty.
            recorder.clear()
            a.setValue("a3", forKey: "title")
            try context.save()
            #expect(Self.objects(recorder.notifications[2], .insertedObjects) == [])
            #expect(Self.objects(recorder.notifications[2], .deletedObjects) == [])
            #expect(Self.objects(recorder.notifications[2], .updatedObjects) == [a])

            // Nothing to save: nothing posted.
            recorder.clear()
            try context.save()
            #expect(recorder.notifications.isEmpty)
        }
    }

    @Test func aFailedSavePostsWillSaveOnly() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        context.performAndWait {
            let item = stack.insert("Item", ["title": "x"])
            context.processPendingChanges()
            let recorder = NotificationRecorder(Self.all, object: context)
            item.setValue(nil, forKey: "title")  // not optional: validation fails
            #expect(throws: CoreDataError.self) { try context.save() }
            #expect(recorder.names == [ManagedObjectContext.didChangeObjectsNotification, ManagedObjectContext.willSaveObjectsNotification])
        }
    }

    @Test func resetPostsInvalidatedAll() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        try context.performAndWait {
            _ = try Self.saved(stack)
            let recorder = NotificationRecorder(Self.all, object: context)
            context.reset()
            #expect(recorder.notifications.count == 1)
            let note = try #require(recorder.notifications.first)
            #expect(Self.keys(note) == ["invalidatedAll"])
            #expect(note.userInfo?[Key.invalidatedAllObjects.rawValue] as? Bool == true)
        }
    }

    @Test func keysHaveCoreDatasStrings() {
        #expect(Key.allCases.map(\.rawValue) == ["inserted", "updated", "deleted", "refreshed", "invalidated", "invalidatedAll",
                                                  "inserted_objectIDs", "updated_objectIDs", "deleted_objectIDs",
                                                  "refreshed_objectIDs", "invalidated_objectIDs"])
        #expect(Key.insertedObjects.rawValue == InsertedObjectsKey)
    }
}
