import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Optimistic locking: a save writes a row only while it still has the version the
/// context read. Before, the second of two writers silently replaced the first's
/// committed values (a two-process counter lost 68,894 of 120,762 increments).
@Suite struct SaveConflictTests {
    /// A nested-list stack with one saved item "counter" (order 0) under a saved "list".
    private func stack(_ kind: StoreKind) throws -> (TestStack, counter: ManagedObjectID, list: ManagedObjectID) {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let ids = try stack.context.performAndWait {
            let list = stack.insert("Item", ["title": "list"])
            let counter = stack.insert("Item", ["title": "counter", "parent": list])
            try stack.context.save()
            return (counter.objectID, list.objectID)
        }
        return (stack, ids.0, ids.1)
    }

    private func order(_ id: ManagedObjectID, in stack: TestStack) -> Int64? {
        let reader = stack.newContext()
        return reader.performAndWait { (try? reader.existingObject(with: id))?.value(forKey: "order") as? Int64 }
    }

    @Test(arguments: StoreKind.allCases)
    func theSecondWriterOfARowConflictsAndWritesNothing(kind: StoreKind) throws {
        let (stack, counterID, listID) = try stack(kind)
        let first = stack.newContext(), second = stack.newContext()
        let a = try first.performAndWait { try first.existingObject(with: counterID) }
        let (b, otherEdit) = try second.performAndWait {
            (try second.existingObject(with: counterID), try second.existingObject(with: listID))
        }
        try first.performAndWait {
            a.setValue(Int64(1), forKey: "order")
            try first.save()
        }
        let error = try #require(second.performAndWait {
            b.setValue(Int64(2), forKey: "order")
            otherEdit.setValue("renamed", forKey: "title")
            return caughtError { try second.save() }
        })
        #expect(error.code == .mergeConflict)
        let record = try #require(error.conflicts.first)
        #expect(error.conflicts.count == 1)
        #expect(record.sourceObjectID == counterID)
        #expect(record.oldVersion == 1 && record.newVersion == 2)
        #expect(record.objectSnapshot["order"] == .int64(2))
        #expect(record.cachedSnapshot["order"] == .int64(0))
        #expect(record.persistedSnapshot?["order"] == .int64(1))
        #expect(record.persistedSnapshot?["parent"] == .objectID(listID))
        // Nothing of the failed save was written, and the context keeps its changes.
        #expect(order(counterID, in: stack) == 1)
        let title = stack.newContext().performAndWait { [stack] in
            (try? stack.context.existingObject(with: listID))?.value(forKey: "title") as? String
        }
        #expect(title == "list")
        second.performAndWait {
            #expect(second.hasChanges)
            #expect(second.updatedObjects.count == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesToDisjointAttributesStillConflict(kind: StoreKind) throws {
        let (stack, counterID, _) = try stack(kind)
        let first = stack.newContext(), second = stack.newContext()
        let a = try first.performAndWait { try first.existingObject(with: counterID) }
        let b = try second.performAndWait { try second.existingObject(with: counterID) }
        try first.performAndWait {
            a.setValue("renamed", forKey: "title")
            try first.save()
        }
        let error = second.performAndWait {
            b.setValue(Int64(7), forKey: "order")
            return caughtError { try second.save() }
        }
        #expect(error?.code == .mergeConflict)
    }

    /// After a conflict, refreshing reads the store (the coordinator's cached row was
    /// evicted), so a retry succeeds instead of conflicting forever.
    @Test(arguments: StoreKind.allCases)
    func refreshAfterAConflictReadsTheStoreAndTheRetrySucceeds(kind: StoreKind) throws {
        let (stack, counterID, _) = try stack(kind)
        // For SQLite, the second writer has a coordinator of its own, as another process
        // would; its row cache still holds version 1 when the first writer commits.
        let secondStack = kind == .sqlite ? try stack.reopened() : stack
        let first = stack.newContext(), second = secondStack.newContext()
        let b = try second.performAndWait { try second.existingObject(with: counterID) }
        try first.performAndWait {
            try first.existingObject(with: counterID).setValue(Int64(1), forKey: "order")
            try first.save()
        }
        try second.performAndWait {
            b.setValue((b.value(forKey: "order") as? Int64 ?? 0) + 1, forKey: "order")
            #expect(caughtError { try second.save() }?.code == .mergeConflict)
            second.refresh(b, mergeChanges: false)
            #expect(b.value(forKey: "order") as? Int64 == 1)
            b.setValue((b.value(forKey: "order") as? Int64 ?? 0) + 1, forKey: "order")
            try second.save()
        }
        #expect(order(counterID, in: stack) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func updatingARowAnotherContextDeletedConflictsWithVersionZero(kind: StoreKind) throws {
        let (stack, counterID, _) = try stack(kind)
        let first = stack.newContext(), second = stack.newContext()
        let b = try second.performAndWait { try second.existingObject(with: counterID) }
        try first.performAndWait {
            first.delete(try first.existingObject(with: counterID))
            try first.save()
        }
        let error = second.performAndWait {
            b.setValue(Int64(3), forKey: "order")
            return caughtError { try second.save() }
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.map(\.newVersion) == [0])
        #expect(error?.conflicts.first?.persistedSnapshot == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func deletingARowAnotherContextChangedConflicts(kind: StoreKind) throws {
        let (stack, counterID, _) = try stack(kind)
        let first = stack.newContext(), second = stack.newContext()
        let b = try second.performAndWait { try second.existingObject(with: counterID) }
        try first.performAndWait {
            try first.existingObject(with: counterID).setValue(Int64(5), forKey: "order")
            try first.save()
        }
        let error = second.performAndWait {
            second.delete(b)
            return caughtError { try second.save() }
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.map(\.sourceObjectID).contains(counterID) == true)
        #expect(order(counterID, in: stack) == 5)
    }

    /// A change to a to-many relationship bumps its owner's version, as in Core Data, so
    /// deleting a parent while another context saved a new child under it conflicts
    /// instead of leaving the child pointing at a deleted row — in either order.
    @Test(arguments: StoreKind.allCases)
    func deletingAParentThatGainedAChildConflicts(kind: StoreKind) throws {
        let (stack, _, listID) = try stack(kind)
        let deleter = stack.newContext(), adder = stack.newContext()
        let list = try deleter.performAndWait { try deleter.existingObject(with: listID) }
        try adder.performAndWait {
            let child = EntityDescription.insertNewObject(forEntityName: "Item", into: adder)
            child.setValue("new child", forKey: "title")
            child.setValue(try adder.existingObject(with: listID), forKey: "parent")
            try adder.save()
        }
        let error = deleter.performAndWait {
            deleter.delete(list)
            return caughtError { try deleter.save() }
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.map(\.sourceObjectID).contains(listID) == true)
        #expect(try danglingChildren(stack) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func addingAChildToAParentAnotherContextDeletedConflicts(kind: StoreKind) throws {
        let (stack, _, listID) = try stack(kind)
        let deleter = stack.newContext(), adder = stack.newContext()
        let list = try adder.performAndWait { try adder.existingObject(with: listID) }
        try deleter.performAndWait {
            deleter.delete(try deleter.existingObject(with: listID))
            try deleter.save()
        }
        let error = adder.performAndWait {
            let child = EntityDescription.insertNewObject(forEntityName: "Item", into: adder)
            child.setValue("orphan", forKey: "title")
            child.setValue(list, forKey: "parent")
            return caughtError { try adder.save() }
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.first { $0.sourceObjectID == listID }?.newVersion == 0)
        #expect(try danglingChildren(stack) == 0)
    }

    /// Children whose parent row does not exist, read by a fresh context.
    private func danglingChildren(_ stack: TestStack) throws -> Int {
        let reader = stack.newContext()
        return try reader.performAndWait {
            let all = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            let ids = Set(all.map(\.objectID))
            return all.filter { object in
                guard let parent = object.value(forKey: "parent") as? ManagedObject else { return false }
                return !ids.contains(parent.objectID)
            }.count
        }
    }

    /// Read-increment-save from two coordinators on one file, retrying on conflicts:
    /// every acknowledged increment is in the store.
    @Test func interleavedCountersLoseNoIncrement() throws {
        let (stack, counterID, _) = try stack(.sqlite)
        let writers = [stack, try stack.reopened()].map { $0.newContext() }
        var acknowledged = 0, conflicts = 0
        for step in 0..<40 {
            // Both read, then both try to write: the later one must conflict.
            let objects = try writers.map { context in try context.performAndWait { try context.existingObject(with: counterID) } }
            for (context, object) in zip(writers, objects) where step % 3 != 2 || context === writers[0] {
                try context.performAndWait {
                    object.setValue((object.value(forKey: "order") as? Int64 ?? 0) + 1, forKey: "order")
                    do {
                        try context.save()
                        acknowledged += 1
                    } catch let error as CoreDataError where error.code == .mergeConflict {
                        conflicts += 1
                        context.refresh(object, mergeChanges: false)
                    }
                }
            }
        }
        #expect(conflicts > 0)
        #expect(order(counterID, in: stack) == Int64(acknowledged))
    }
}

extension SaveConflictTests {
    /// Rolling back after a conflict used to restore the stale values the context had
    /// read, so a read-increment-save retry conflicted again, forever.
    @Test(arguments: StoreKind.allCases)
    func rollbackAfterAConflictRestoresTheStoredValues(kind: StoreKind) throws {
        let (stack, counterID, _) = try stack(kind)
        let secondStack = kind == .sqlite ? try stack.reopened() : stack
        let first = stack.newContext(), second = secondStack.newContext()
        let b = try second.performAndWait { try second.existingObject(with: counterID) }
        try first.performAndWait {
            try first.existingObject(with: counterID).setValue(Int64(10), forKey: "order")
            try first.save()
        }
        try second.performAndWait {
            b.setValue(Int64(1), forKey: "order")
            #expect(caughtError { try second.save() }?.code == .mergeConflict)
            second.rollback()
            #expect(b.value(forKey: "order") as? Int64 == 10)
            b.setValue(Int64(11), forKey: "order")
            try second.save()
        }
        #expect(order(counterID, in: stack) == 11)
    }
}

/// `refresh(_:mergeChanges: true)` keeps a changed to-many relationship's edits and
/// replays them on the store's current members, so a retry after a conflict keeps what
/// the other writer added or removed.
@Suite struct ToManyRefreshMergeTests {
    private func ids(_ names: String...) -> [ManagedObjectID] {
        let entity = EntityDescription(name: "T", properties: [])
        return names.map { ManagedObjectID(entity: entity, storeIdentifier: $0, primaryKey: 1) }
    }

    @Test func editsAreReplayedOnTheStoredMembers() {
        let (x, y, m, z) = { let all = ids("x", "y", "m", "z"); return (all[0], all[1], all[2], all[3]) }()
        // Mine: removed y, added m. Theirs: removed x, added z.
        let merged = RelatedObjects([x, m]).replaying(
            since: RelatedObjects([x, y]), on: RelatedObjects([y, z]))
        #expect(merged.ordered == [m, z])
        // A pure reorder keeps the context's order and appends what others added.
        let reordered = RelatedObjects([y, x]).replaying(
            since: RelatedObjects([x, y]), on: RelatedObjects([x, y, z]))
        #expect(reordered.ordered == [y, x, z])
    }

    @Test(arguments: StoreKind.allCases)
    func aRemovalAndAnotherWritersAdditionBothSurviveTheRetry(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        let (noteID, tagIDs) = try stack.context.performAndWait {
            let note = stack.insert("Note", ["text": "n"])
            let tags = ["old", "kept", "new"].map { stack.insert("Tag", ["name": $0]) }
            note.setValue(Set(tags[0...1]), forKey: "tags")
            try stack.context.save()
            return (note.objectID, tags.map(\.objectID))
        }
        let mine = stack.newContext(), theirs = stack.newContext()
        try mine.performAndWait {
            try mine.existingObject(with: noteID).mutableSetValue(forKey: "tags").remove(try mine.existingObject(with: tagIDs[0]))
        }
        try theirs.performAndWait {
            try theirs.existingObject(with: noteID).mutableSetValue(forKey: "tags").add(try theirs.existingObject(with: tagIDs[2]))
            try theirs.save()
        }
        try mine.performAndWait {
            #expect(code { try mine.save() } == .mergeConflict)
            for object in mine.registeredObjects { mine.refresh(object, mergeChanges: true) }
            try mine.save()
        }
        let reader = stack.newContext()
        let stored = try reader.performAndWait {
            Set((try reader.existingObject(with: noteID).value(forKey: "tags") as? Set<ManagedObject> ?? []).map(\.objectID))
        }
        #expect(stored == [tagIDs[1], tagIDs[2]])
    }
}
