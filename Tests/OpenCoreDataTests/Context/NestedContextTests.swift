import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Child contexts (`ManagedObjectContext.parent`): reads through the parent with its
/// unsaved changes, saves pushed into the parent without touching the store, temporary
/// IDs, deletes, relationships, validation and conflicts across the levels.
@Suite struct NestedContextTests {
    /// A stack whose store holds the roots "a" (order 0), "b" (1), "c" (2), "c" with
    /// children "c1", "c2"; its context is the parent.
    private func stack(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            var roots: [String: ManagedObject] = [:]
            for (order, title) in ["a", "b", "c"].enumerated() {
                roots[title] = stack.insert("Item", ["title": title, "order": Int64(order)])
            }
            for title in ["c1", "c2"] { _ = stack.insert("Item", ["title": title, "order": Int64(9), "parent": roots["c"]]) }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    private func child(of parent: ManagedObjectContext) -> ManagedObjectContext {
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        return child
    }

    private func titles(_ context: ManagedObjectContext, _ format: String? = nil, sortedBy key: String = "order", limit: Int = 0) throws -> [String] {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            if let format { request.predicate = try CDPredicate(format: format) }
            request.sortDescriptors = [CDSortDescriptor(key: key, ascending: true), CDSortDescriptor(key: "title", ascending: true)]
            request.fetchLimit = limit
            return try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "?" }
        }
    }

    private func count(_ context: ManagedObjectContext, _ format: String? = nil) throws -> Int {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            if let format { request.predicate = try CDPredicate(format: format) }
            return try context.count(for: request)
        }
    }

    private func one(_ context: ManagedObjectContext, _ title: String) throws -> ManagedObject {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = try CDPredicate(format: "title == %@", argumentArray: [title])
            return try #require(try context.fetch(request).first)
        }
    }

    /// What the store holds, read by a fresh context on the coordinator.
    private func stored(_ stack: TestStack) throws -> [String] {
        let reader = stack.newContext()
        return try titles(reader, sortedBy: "title")
    }

    @Test(arguments: StoreKind.allCases)
    func aChildSeesItsParentsUnsavedInsertsUpdatesAndDeletes(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        try parent.performAndWait {
            _ = stack.insert("Item", ["title": "d", "order": Int64(1)])
            try one(parent, "b").setValue(Int64(10), forKey: "order")
            try one(parent, "b").setValue("B", forKey: "title")
            parent.delete(try one(parent, "a"))
        }
        let child = child(of: parent)
        #expect(try titles(child, "parent == nil") == ["d", "c", "B"])
        #expect(try titles(child, "parent == nil", limit: 2) == ["d", "c"])
        #expect(try titles(child, "title BEGINSWITH[c] 'b'") == ["B"])
        #expect(try count(child) == 5)
        #expect(try count(child, "order >= 2") == 4)
        #expect(try count(child, "title == 'a'") == 0)
        // The child's own changes layer on top of the parent's.
        try child.performAndWait {
            try one(child, "d").setValue(Int64(20), forKey: "order")
            child.delete(try one(child, "c"))
        }
        #expect(try titles(child, "parent == nil") == ["B", "d"])
        #expect(try count(child) == 2, "c's children go with it (cascade in the child)")
        #expect(try stored(stack) == ["a", "b", "c", "c1", "c2"], "nothing reached the store")
    }

    @Test(arguments: StoreKind.allCases)
    func aChildsSaveReachesTheParentAndOnlyTheParentsSaveTheStore(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        #expect(child.persistentStoreCoordinator === stack.coordinator, "a child reads its root's coordinator")
        let (newID, new) = try child.performAndWait {
            let new = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            new.setValue("new", forKey: "title")
            try one(child, "b").setValue("b2", forKey: "title")
            try child.save()
            #expect(!child.hasChanges)
            return (new.objectID, new)
        }
        #expect(newID.isTemporaryID)
        try parent.performAndWait {
            let inParent = try #require(parent.registeredObject(for: newID), "the parent has the object, with the child's temporary ID")
            #expect(inParent.isInserted)
            #expect(inParent.value(forKey: "title") as? String == "new")
            #expect(parent.updatedObjects.map { $0.value(forKey: "title") as? String } == ["b2"])
        }
        #expect(try stored(stack) == ["a", "b", "c", "c1", "c2"], "a child's save does not touch the store")
        try parent.performAndWait { try parent.save() }
        #expect(try stored(stack) == ["a", "b2", "c", "c1", "c2", "new"])

        // Core Data keeps the child's temporary ID across the root's save; here the next
        // fetch gives the child's own object its permanent ID (no second object for it).
        try child.performAndWait {
            #expect(new.objectID.isTemporaryID)
            let fetched = try one(child, "new")
            #expect(fetched === new)
            #expect(!new.objectID.isTemporaryID)
            #expect(new.objectID == (try one(stack.newContext(), "new").objectID), "the ID of the stored row")
            // Changed again, it saves into the parent's object for the row: no conflict.
            new.setValue("newer", forKey: "title")
            try child.save()
        }
        try parent.performAndWait { try parent.save() }
        #expect(try stored(stack) == ["a", "b2", "c", "c1", "c2", "newer"])
    }

    @Test(arguments: StoreKind.allCases)
    func obtainPermanentIDsInAChildGivesTheIDsTheParentSaves(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        let new = try child.performAndWait {
            let new = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            new.setValue("early", forKey: "title")
            try child.save()
            return new
        }
        try parent.performAndWait { try parent.save() }
        try child.performAndWait {
            // A fault of the pushed object fires through the parent, which knows the row by
            // its permanent ID now.
            child.refresh(new, mergeChanges: false)
            #expect(new.value(forKey: "title") as? String == "early")
            try child.obtainPermanentIDs(for: [new])
            #expect(!new.objectID.isTemporaryID)
        }
        #expect(new.objectID == (try one(stack.newContext(), "early").objectID))

        // Obtained before the child's save: the parent's object takes the same ID.
        let (early, id) = try child.performAndWait {
            let early = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            early.setValue("obtained", forKey: "title")
            try child.obtainPermanentIDs(for: [early])
            try child.save()
            return (early, early.objectID)
        }
        #expect(!id.isTemporaryID)
        try parent.performAndWait {
            #expect(parent.registeredObject(for: id)?.isInserted == true)
            try parent.save()
        }
        #expect(try stored(stack).contains("obtained"))
        _ = early
    }

    @Test(arguments: StoreKind.allCases)
    func aGrandchildsSaveTravelsOneLevelPerSave(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let middle = child(of: parent)
        let grandchild = child(of: middle)
        #expect(grandchild.persistentStoreCoordinator === stack.coordinator)
        try parent.performAndWait { try one(parent, "a").setValue("a-parent", forKey: "title") }
        #expect(try titles(grandchild, "parent == nil") == ["a-parent", "b", "c"], "reads go through every level")
        try grandchild.performAndWait {
            let list = EntityDescription.insertNewObject(forEntityName: "Item", into: grandchild)
            list.setValue("g", forKey: "title")
            list.setValue(try one(grandchild, "b"), forKey: "parent")
            try grandchild.save()
        }
        #expect(try titles(middle, "parent.title == 'b'") == ["g"])
        #expect(try count(parent, "title == 'g'") == 0, "one level per save")
        try middle.performAndWait { try middle.save() }
        #expect(try titles(parent, "parent.title == 'b'") == ["g"])
        #expect(try stored(stack) == ["a", "b", "c", "c1", "c2"])
        try parent.performAndWait { try parent.save() }
        #expect(try stored(stack) == ["a-parent", "b", "c", "c1", "c2", "g"])
        let reader = stack.newContext()
        let b = try one(reader, "b")
        let children = reader.performAndWait { (b.value(forKey: "children") as? Set<ManagedObject>)?.map { $0.value(forKey: "title") as? String } }
        #expect(children == ["g"], "the relationship reached the store from both sides")
    }

    @Test(arguments: StoreKind.allCases)
    func deletesCascadeInTheChildAndAgainInTheParent(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        try child.performAndWait {
            child.delete(try one(child, "c"))
            try child.save()
        }
        parent.performAndWait {
            #expect(Set(parent.deletedObjects.map { $0.value(forKey: "title") as? String }) == ["c", "c1", "c2"])
        }
        #expect(try count(child) == 2)
        try parent.performAndWait { try parent.save() }
        #expect(try stored(stack) == ["a", "b"])

        // A delete the parent makes is seen by a new child, its cascade too.
        try parent.performAndWait {
            let b = try one(parent, "b")
            let kid = stack.insert("Item", ["title": "b1"])
            kid.setValue(b, forKey: "parent")
            try parent.save()
            parent.delete(b)
        }
        let reader = self.child(of: parent)
        #expect(try titles(reader) == ["a"])
    }

    @Test(arguments: StoreKind.allCases)
    func aMovedObjectIsConsistentOnBothSidesInTheParent(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        try child.performAndWait {
            try one(child, "c1").setValue(try one(child, "a"), forKey: "parent")
            try child.save()
        }
        try parent.performAndWait {
            let c1 = try one(parent, "c1")
            #expect((c1.value(forKey: "parent") as? ManagedObject)?.value(forKey: "title") as? String == "a")
            #expect((try one(parent, "a").value(forKey: "children") as? Set<ManagedObject>)?.contains(c1) == true)
            #expect((try one(parent, "c").value(forKey: "children") as? Set<ManagedObject>)?.map { $0.value(forKey: "title") as? String } == ["c2"])
            try parent.save()
        }
        let reader = stack.newContext()
        #expect(try titles(reader, "parent.title == 'a'") == ["c1"])
        #expect(try titles(reader, "parent.title == 'c'") == ["c2"])
    }

    @Test(arguments: StoreKind.allCases)
    func aChildsInvalidSaveChangesNothingInTheParent(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        try child.performAndWait {
            let bad = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            bad.setValue(nil, forKey: "title")
            try one(child, "a").setValue("a2", forKey: "title")
            #expect(code { try child.save() } == .validationMissingMandatoryProperty)
            #expect(child.hasChanges)
        }
        parent.performAndWait { #expect(!parent.hasChanges) }
    }

    @Test(arguments: StoreKind.allCases)
    func theParentValidatesAgainWhenItSaves(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        try parent.performAndWait { try one(parent, "b").setValue(nil, forKey: "title") }
        try child.performAndWait {
            let new = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            new.setValue("valid", forKey: "title")
            try child.save()
        }
        parent.performAndWait {
            #expect(code { try parent.save() } == .validationMissingMandatoryProperty)
            #expect(parent.insertedObjects.count == 1, "the child's push stays in the parent to fix and retry")
        }
        #expect(try stored(stack) == ["a", "b", "c", "c1", "c2"])
    }

    @Test(arguments: StoreKind.allCases)
    func aParentsRollbackDropsWhatAChildPushed(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        let a = try child.performAndWait {
            EntityDescription.insertNewObject(forEntityName: "Item", into: child).setValue("x", forKey: "title")
            let a = try one(child, "a")
            a.setValue("a2", forKey: "title")
            try child.save()
            return a
        }
        parent.performAndWait {
            parent.rollback()
            #expect(!parent.hasChanges)
        }
        let reader = self.child(of: parent)
        #expect(try titles(reader, sortedBy: "title") == ["a", "b", "c", "c1", "c2"])
        try child.performAndWait {
            // The parent's object moved on (rolled back) since the child pushed it.
            a.setValue("a3", forKey: "title")
            #expect(code { try child.save() } == .mergeConflict)
            child.refresh(a, mergeChanges: false)
            #expect(a.value(forKey: "title") as? String == "a")
            a.setValue("a3", forKey: "title")
            try child.save()
        }
        try parent.performAndWait { try parent.save() }
        #expect(try stored(stack) == ["a3", "b", "c", "c1", "c2"])
    }

    @Test(arguments: StoreKind.allCases)
    func aChildsSaveOfAnObjectTheParentChangedSinceIsAConflict(kind: StoreKind) throws {
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        let (a, c) = try child.performAndWait { (try one(child, "a"), try one(child, "c")) }
        try parent.performAndWait {
            try one(parent, "a").setValue("parent", forKey: "title")
            parent.delete(try one(parent, "c"))
        }
        child.performAndWait {
            a.setValue("child", forKey: "title")
            c.setValue(Int64(5), forKey: "order")
            let error = caughtError { try child.save() }
            #expect(error?.code == .mergeConflict)
            let conflicts = error?.conflicts ?? []
            #expect(Set(conflicts.map(\.sourceObjectID)) == [a.objectID, c.objectID])
            #expect(conflicts.first { $0.sourceObjectID == c.objectID }?.newVersion == 0, "deleted in the parent")
            #expect(conflicts.first { $0.sourceObjectID == a.objectID }?.persistedSnapshot?["title"] == .string("parent"))
            #expect(child.hasChanges)
        }
        try parent.performAndWait {
            let a = try #require(parent.registeredObject(for: a.objectID))
            #expect(a.value(forKey: "title") as? String == "parent", "nothing changed in the parent")
            #expect(parent.registeredObject(for: c.objectID)?.isDeleted == true)
            #expect(parent.updatedObjects.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aParentsSaveOfWhatAChildPushedIsNoConflict(kind: StoreKind) throws {
        // The nested-writer pattern: a long-lived child pushes, the parent saves, the child
        // edits the same objects again.
        let stack = try stack(kind)
        let parent = stack.context
        let child = child(of: parent)
        let a = try child.performAndWait { try one(child, "a") }
        for round in 1...3 {
            try child.performAndWait {
                a.setValue("a\(round)", forKey: "title")
                try child.save()
            }
            try parent.performAndWait { try parent.save() }
        }
        #expect(try stored(stack) == ["a3", "b", "c", "c1", "c2"])
    }

    @Test func settingAParentOnAContextWithACoordinatorTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
            let context = stack.newContext()
            context.parent = stack.context
        }
    }

    @Test func settingAParentAfterUseTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = stack.context
            child.performAndWait { _ = EntityDescription.insertNewObject(forEntityName: "Item", into: child) }
            child.parent = stack.newContext()
        }
    }
}

/// The runnable example of docs/contexts.md.
@Suite struct ContextsDocExampleTests {
    @Test(arguments: StoreKind.allCases)
    func theEditingChildExampleRuns(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let viewContext = stack.context
        // example: contexts
        let editor = ManagedObjectContext(concurrencyType: .privateQueue)
        editor.parent = viewContext
        try editor.performAndWait {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: editor)
            item.setValue("Milk", forKey: "title")
            try editor.save()                       // pushed into viewContext, not the store
        }
        try viewContext.performAndWait {
            let items = try viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            print(items.map { $0.value(forKey: "title") as? String ?? "" })   // ["Milk"]
            try viewContext.save()                  // now in the store
        }
        // end example
        let stored = try stack.newContext().performAndWait { try stack.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
        #expect(stored == 1)
        #expect(DocExample.mismatch(doc: "contexts.md", name: "contexts") == nil)
    }
}
