import Foundation
import Testing
import OpenCoreDataTestSupport
@_spi(ChangeTracking) @testable import OpenCoreData

/// Merging the saves of one context into another on the same coordinator:
/// `mergeChanges(fromContextDidSave:)`, automatic merging, `refreshAllObjects()`.
@Suite struct MergeChangesTests {
    typealias Key = ManagedObjectContext.NotificationKey

    /// Two contexts on one store: `a` (the stack's) and `b`, each with the saved items
    /// x, y, z loaded (and held: contexts hold unchanged objects weakly); `b` has an
    /// unsaved change (x.order = 5).
    struct Pair {
        let stack: TestStack
        let a: ManagedObjectContext
        let b: ManagedObjectContext
        let x: ManagedObjectID, y: ManagedObjectID, z: ManagedObjectID
        let held: [ManagedObject]

        init(_ kind: StoreKind) throws {
            stack = try TestStack(model: Models.nestedList(), kind: kind)
            a = stack.context
            b = stack.newContext()
            let stack = stack
            let inA = try a.performAndWait {
                let objects = [stack.insert("Item", ["title": "x"]), stack.insert("Item", ["title": "y"]), stack.insert("Item", ["title": "z"])]
                try stack.context.save()
                return objects
            }
            (x, y, z) = (inA[0].objectID, inA[1].objectID, inA[2].objectID)
            let (b, ids) = (b, [x, y, z])
            let inB = try b.performAndWait {
                let objects = try ids.map { try b.existingObject(with: $0) }
                objects[0].setValue(Int64(5), forKey: "order")
                b.processPendingChanges()
                return objects
            }
            held = inA + inB
        }

        /// In `a`: x renamed, z deleted, n inserted under x; saved. Returns n's ID and the
        /// did-save notification.
        func saveInA() throws -> (ManagedObjectID, Notification) {
            let recorder = NotificationRecorder([ManagedObjectContext.didSaveObjectsNotification], object: a)
            let (a, stack, x, z) = (a, stack, x, z)
            let n = try a.performAndWait {
                let xInA = try a.existingObject(with: x)
                xInA.setValue("x-A", forKey: "title")
                a.delete(try a.existingObject(with: z))
                let n = stack.insert("Item", ["title": "n", "parent": xInA])
                try a.save()
                return n.objectID
            }
            return (n, try #require(recorder.notifications.first))
        }

        /// Checks `b` after merging `saveInA()`: x renamed with b's own order kept, z gone,
        /// n registered under x; then b saves both edits without a conflict.
        func expectMerged(n: ManagedObjectID, changes: [Notification]) throws {
            let (b, x, z) = (b, x, z)
            try b.performAndWait {
                let xInB = try #require(b.registeredObject(for: x))
                #expect(xInB.value(forKey: "title") as? String == "x-A")
                #expect(xInB.value(forKey: "order") as? Int64 == 5)
                #expect(xInB.isUpdated)
                #expect(b.registeredObject(for: z) == nil)
                let nInB = try #require(b.registeredObject(for: n))
                #expect(nInB.value(forKey: "title") as? String == "n")
                #expect(nInB.value(forKey: "parent") as? ManagedObject === xInB)
                #expect((xInB.value(forKey: "children") as? Set<ManagedObject>) == [nInB])

                #expect(changes.count == 1)
                let note = try #require(changes.first)
                #expect(Set((note.userInfo ?? [:]).keys.compactMap { $0 as? String }) == ["inserted", "refreshed", "deleted"])
                #expect((note.userInfo?[Key.insertedObjects.rawValue] as? Set<ManagedObject>)?.map(\.objectID) == [n])
                #expect((note.userInfo?[Key.refreshedObjects.rawValue] as? Set<ManagedObject>) == [xInB])
                #expect((note.userInfo?[Key.deletedObjects.rawValue] as? Set<ManagedObject>)?.map(\.objectID) == [z])

                try b.save()
            }
            let check = stack.newContext()
            try check.performAndWait {
                let stored = try check.existingObject(with: x)
                #expect(stored.value(forKey: "title") as? String == "x-A")
                #expect(stored.value(forKey: "order") as? Int64 == 5)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func mergeFromContextDidSaveAppliesInsertsUpdatesAndDeletesKeepingUnsavedEdits(kind: StoreKind) throws {
        let pair = try Pair(kind)
        let (n, note) = try pair.saveInA()
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: pair.b)
        pair.b.mergeChanges(fromContextDidSave: note)  // from outside b's queue: runs on it
        try pair.expectMerged(n: n, changes: changes.notifications)
    }

    @Test(arguments: StoreKind.allCases)
    func mergeFromTheObjectIDsNotification(kind: StoreKind) throws {
        let pair = try Pair(kind)
        let recorder = NotificationRecorder([ManagedObjectContext.didSaveObjectIDsNotification], object: pair.a)
        let (n, _) = try pair.saveInA()
        let note = try #require(recorder.notifications.first)
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: pair.b)
        pair.b.performAndWait { pair.b.mergeChanges(fromContextDidSave: note) }
        try pair.expectMerged(n: n, changes: changes.notifications)
    }

    /// A sibling on the coordinator with `automaticallyMergesChangesFromParent` merges
    /// every save of the others, on its own queue; a context without it does not.
    @Test(arguments: StoreKind.allCases)
    func automaticMergingBetweenSiblings(kind: StoreKind) throws {
        let pair = try Pair(kind)
        pair.b.automaticallyMergesChangesFromParent = true
        let bystander = pair.stack.newContext()
        let x = pair.x
        let held = try bystander.performAndWait {
            let object = try bystander.existingObject(with: x)
            _ = object.value(forKey: "title")
            return object
        }
        defer { withExtendedLifetime(held) {} }
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: pair.b)
        let (n, _) = try pair.saveInA()
        pair.b.performAndWait {}  // the merge was queued on b by a's save
        try pair.expectMerged(n: n, changes: changes.notifications)
        #expect(bystander.performAndWait { bystander.registeredObject(for: x)?.value(forKey: "title") as? String } == "x")

        // b's own save is not merged back into b; a does not merge automatically.
        let a = pair.a
        #expect(a.performAndWait { a.registeredObject(for: x)?.value(forKey: "order") as? Int64 } == 0)

        // Turned off: later saves are not merged.
        pair.b.automaticallyMergesChangesFromParent = false
        let c = pair.stack.newContext()
        try c.performAndWait {
            try c.existingObject(with: x).setValue("x-C", forKey: "title")
            try c.save()
        }
        let b = pair.b
        #expect(b.performAndWait { b.registeredObject(for: x)?.value(forKey: "title") as? String } == "x-A")
    }

    /// A context that merges automatically is not kept alive by its coordinator, and a
    /// save after it is gone merges into no one.
    @Test func anAutomaticallyMergingContextCanGoAway() throws {
        let stack = try TestStack(model: Models.nestedList())
        weak var gone: ManagedObjectContext?
        do {
            let sibling = stack.newContext()
            sibling.automaticallyMergesChangesFromParent = true
            gone = sibling
        }
        #expect(gone == nil)
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "x"])
            try stack.context.save()
        }
    }

    /// Set before the coordinator: it subscribes once the coordinator is set.
    @Test func automaticMergingSetBeforeTheCoordinator() throws {
        let stack = try TestStack(model: Models.nestedList())
        let sibling = ManagedObjectContext(concurrencyType: .privateQueue)
        sibling.automaticallyMergesChangesFromParent = true
        sibling.persistentStoreCoordinator = stack.coordinator
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: sibling)
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "x"])
            try stack.context.save()
        }
        sibling.performAndWait {}
        #expect(changes.notifications.count == 1)
        let inserted = changes.notifications.first?.userInfo?[Key.insertedObjects.rawValue] as? Set<ManagedObject>
        #expect(sibling.performAndWait { inserted?.map { $0.value(forKey: "title") as? String } } == ["x"])
    }

    /// A merge's change set is marked as one, and lists merged inserts as inserted.
    @Test func aMergesChangeSetIsMarked() throws {
        let pair = try Pair(.inMemory)
        final class Box: @unchecked Sendable { var sets: [ChangeSet] = [] }
        let box = Box()
        pair.b.performAndWait { _ = pair.b.addChangeConsumer { box.sets.append($0) } }
        let (n, note) = try pair.saveInA()
        pair.b.mergeChanges(fromContextDidSave: note)
        pair.b.performAndWait {
            #expect(box.sets.count == 1)
            #expect(box.sets.first?.isMerge == true)
            #expect(box.sets.first?.inserted.map(\.objectID) == [n])
            try? pair.b.existingObject(with: pair.y).setValue("y-B", forKey: "title")
            pair.b.processPendingChanges()
            #expect(box.sets.count == 2)
            #expect(box.sets.last?.isMerge == false)
        }
    }

    /// `mergeChanges(fromRemoteContextSave:into:)` takes the same path: inserted IDs
    /// are registered and listed, updated ones refreshed, deleted ones removed.
    @Test(arguments: StoreKind.allCases)
    func mergeFromRemoteContextSaveTakesTheSamePath(kind: StoreKind) throws {
        let pair = try Pair(kind)
        let (n, _) = try pair.saveInA()
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: pair.b)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [InsertedObjectsKey: [n], UpdatedObjectsKey: [pair.x], DeletedObjectsKey: [pair.z]],
                                          into: [pair.b])
        try pair.expectMerged(n: n, changes: changes.notifications)
    }

    /// `refreshAllObjects()`: every loaded object takes the store's current values,
    /// keeping the context's unsaved changes.
    @Test(arguments: StoreKind.allCases)
    func refreshAllObjectsKeepsPendingChanges(kind: StoreKind) throws {
        let pair = try Pair(kind)
        let (a, b, x, y) = (pair.a, pair.b, pair.x, pair.y)
        try a.performAndWait {
            try a.existingObject(with: x).setValue("x-A", forKey: "title")
            try a.existingObject(with: y).setValue("y-A", forKey: "title")
            try a.save()
        }
        let changes = NotificationRecorder([ManagedObjectContext.didChangeObjectsNotification], object: b)
        try b.performAndWait {
            let xInB = try #require(b.registeredObject(for: x)), yInB = try #require(b.registeredObject(for: y))
            #expect(yInB.value(forKey: "title") as? String == "y")
            b.refreshAllObjects()
            #expect(xInB.value(forKey: "title") as? String == "x-A")
            #expect(xInB.value(forKey: "order") as? Int64 == 5)
            #expect(yInB.value(forKey: "title") as? String == "y-A")
            b.processPendingChanges()
            #expect(changes.notifications.count == 1)
            let refreshed = changes.notifications.first?.userInfo?[Key.refreshedObjects.rawValue] as? Set<ManagedObject>
            #expect(refreshed?.isSuperset(of: [xInB, yInB]) == true)
            try b.save()
        }
    }

    /// docs/merging-changes.md's example, run.
    @Test func theMergingDocExampleRuns() throws {
        let stack = try TestStack(model: Models.nestedList())
        let coordinator = stack.coordinator
        // example: merging-changes
        let ui = ManagedObjectContext(concurrencyType: .privateQueue)
        ui.persistentStoreCoordinator = coordinator
        ui.automaticallyMergesChangesFromParent = true            // merge the siblings' saves
        let background = ManagedObjectContext(concurrencyType: .privateQueue)
        background.persistentStoreCoordinator = coordinator

        // A saved item, loaded in `ui`, with an unsaved change there.
        let item = try ui.performAndWait {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: ui)
            item.setValue("Milk", forKey: "title")
            try ui.save()
            item.setValue(Int64(1), forKey: "order")
            return item
        }
        let id = ui.performAndWait { item.objectID }

        // Another context renames it and saves; `ui` merges that save on its own queue.
        try background.performAndWait {
            try background.existingObject(with: id).setValue("Oat milk", forKey: "title")
            try background.save()
        }
        ui.performAndWait {
            print(item.value(forKey: "title") as? String ?? "", item.value(forKey: "order") as? Int64 ?? 0)   // Oat milk 1
        }
        // end example
        ui.performAndWait {
            #expect(item.value(forKey: "title") as? String == "Oat milk")
            #expect(item.value(forKey: "order") as? Int64 == 1)
        }
        #expect(DocExample.mismatch(doc: "merging-changes.md", name: "merging-changes") == nil)
    }
}
