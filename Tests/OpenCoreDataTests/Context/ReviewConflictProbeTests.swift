import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: concurrent edits of a many-to-many relationship and deletes of rows another
/// context changed conflict rather than lose a membership or a change.
@Suite struct ReviewConflictProbeTests {
    private func notesStack(_ kind: StoreKind) throws -> (TestStack, n1: ManagedObjectID, n2: ManagedObjectID, tag: ManagedObjectID) {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        let ids = try stack.context.performAndWait {
            let n1 = stack.insert("Note", ["text": "one"]), n2 = stack.insert("Note", ["text": "two"])
            let tag = stack.insert("Tag", ["name": "t"])
            try stack.context.save()
            return (n1.objectID, n2.objectID, tag.objectID)
        }
        return (stack, ids.0, ids.1, ids.2)
    }

    private func members(_ id: ManagedObjectID, in stack: TestStack) throws -> Set<ManagedObjectID> {
        let reader = stack.newContext()
        return try reader.performAndWait {
            let tag = try reader.existingObject(with: id)
            return Set((tag.value(forKey: "notes") as? Set<ManagedObject> ?? []).map(\.objectID))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoContextsTaggingDifferentNotesKeepBothMemberships(kind: StoreKind) throws {
        let (stack, n1, n2, tagID) = try notesStack(kind)
        let a = stack.newContext(), b = stack.newContext()
        try a.performAndWait {
            let note = try a.existingObject(with: n1), tag = try a.existingObject(with: tagID)
            note.mutableSetValue(forKey: "tags").add(tag)
        }
        try b.performAndWait {
            let note = try b.existingObject(with: n2), tag = try b.existingObject(with: tagID)
            note.mutableSetValue(forKey: "tags").add(tag)
            try b.save()
        }
        let saved = a.performAndWait { (try? a.save()) != nil }
        // Either the second save conflicts or both memberships are stored.
        let stored = try members(tagID, in: stack)
        #expect(stored.contains(n2))
        #expect(saved == stored.contains(n1))
    }

    @Test(arguments: StoreKind.allCases)
    func deletingAnUnfiredFaultChangedElsewhereConflicts(kind: StoreKind) throws {
        let (stack, n1, _, _) = try notesStack(kind)
        let a = stack.newContext(), b = stack.newContext()
        a.performAndWait { _ = a.object(with: n1) }
        try b.performAndWait {
            try b.existingObject(with: n1).setValue("changed", forKey: "text")
            try b.save()
        }
        let saved = a.performAndWait {
            a.delete(a.object(with: n1))
            return (try? a.save()) != nil
        }
        let reader = stack.newContext()
        let exists = reader.performAndWait { (try? reader.existingObject(with: n1)) != nil }
        // Either the delete is refused (conflict) or it happened; never both "saved" and "still there".
        #expect(saved != exists)
    }

    @Test(arguments: StoreKind.allCases)
    func updatedThenDeletedObjectConflictsWithAnotherSave(kind: StoreKind) throws {
        let (stack, n1, _, _) = try notesStack(kind)
        let a = stack.newContext(), b = stack.newContext()
        try a.performAndWait { try a.existingObject(with: n1).setValue("mine", forKey: "text") }
        try b.performAndWait {
            try b.existingObject(with: n1).setValue("theirs", forKey: "text")
            try b.save()
        }
        let error = a.performAndWait { () -> CoreDataError? in
            a.delete(a.object(with: n1))
            do { try a.save() } catch let error as CoreDataError { return error } catch { return nil }
            return nil
        }
        #expect(error?.code == .mergeConflict)
    }
}

/// Review: after a conflict, refreshing with `mergeChanges: true` keeps the context's
/// change, takes the other writer's, and the retried save writes both.
@Suite struct ReviewConflictRetryTests {
    @Test(arguments: StoreKind.allCases)
    func refreshMergingAfterAConflictThenSaveKeepsBothWriters(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        let id = try stack.context.performAndWait {
            let thing = stack.insert("Thing", ["name": "first", "int32": Int32(1)])
            try stack.context.save()
            return thing.objectID
        }
        let a = stack.newContext(), b = stack.newContext()
        let mine = try a.performAndWait {
            let thing = try a.existingObject(with: id)
            thing.setValue("mine", forKey: "name")
            return thing
        }
        try b.performAndWait {
            try b.existingObject(with: id).setValue(Int32(2), forKey: "int32")
            try b.save()
        }
        try a.performAndWait {
            #expect(throws: CoreDataError.self) { try a.save() }
            a.refresh(mine, mergeChanges: true)
            #expect(mine.value(forKey: "name") as? String == "mine")
            #expect(mine.value(forKey: "int32") as? Int32 == 2)
            try a.save()
        }
        let reader = stack.newContext()
        let stored = try reader.performAndWait {
            let thing = try reader.existingObject(with: id)
            return (thing.value(forKey: "name") as? String, thing.value(forKey: "int32") as? Int32)
        }
        #expect(stored.0 == "mine" && stored.1 == 2)
    }
}

/// Review: resolving a conflict on a many-to-many by refreshing with `mergeChanges: true`.
/// The context keeps its whole member list, so the retried save replaces the other
/// writer's memberships with that list. It replays the context's edits on the store's
/// members now.
@Suite struct ReviewToManyMergeTests {
    @Test(arguments: StoreKind.allCases)
    func refreshMergingAManyToManyKeepsTheOtherWritersMembers(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        let (noteID, mineID, theirsID) = try stack.context.performAndWait {
            let note = stack.insert("Note", ["text": "n"])
            let mine = stack.insert("Tag", ["name": "mine"]), theirs = stack.insert("Tag", ["name": "theirs"])
            try stack.context.save()
            return (note.objectID, mine.objectID, theirs.objectID)
        }
        let a = stack.newContext(), b = stack.newContext()
        let note = try a.performAndWait {
            let note = try a.existingObject(with: noteID)
            note.mutableSetValue(forKey: "tags").add(try a.existingObject(with: mineID))
            return note
        }
        try b.performAndWait {
            try b.existingObject(with: noteID).mutableSetValue(forKey: "tags").add(try b.existingObject(with: theirsID))
            try b.save()
        }
        try a.performAndWait {
            #expect(throws: CoreDataError.self) { try a.save() }
            for object in a.registeredObjects { a.refresh(object, mergeChanges: true) }
            try a.save()
        }
        let reader = stack.newContext()
        let stored = try reader.performAndWait {
            Set((try reader.existingObject(with: noteID).value(forKey: "tags") as? Set<ManagedObject> ?? []).map(\.objectID))
        }
        #expect(stored == [mineID, theirsID])
        _ = note
    }
}

/// Review: an ordered relationship reordered in one context while another adds to it
/// conflicts on the owner, so neither the new member nor the order is silently lost.
@Suite struct ReviewOrderedConflictTests {
    @Test(arguments: StoreKind.allCases)
    func reorderingWhileAnotherContextAddsConflicts(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        let folderID = try stack.context.performAndWait {
            let folder = stack.insert("Folder", ["name": "f"])
            for text in ["one", "two"] { _ = stack.insert("Note", ["text": text, "folder": folder]) }
            try stack.context.save()
            return folder.objectID
        }
        let a = stack.newContext(), b = stack.newContext()
        let folder = try a.performAndWait {
            let folder = try a.existingObject(with: folderID)
            let notes = folder.mutableOrderedSetValue(forKey: "notes")
            _ = notes.count
            return folder
        }
        try b.performAndWait {
            let note = EntityDescription.insertNewObject(forEntityName: "Note", into: b)
            note.setValue("three", forKey: "text")
            note.setValue(try b.existingObject(with: folderID), forKey: "folder")
            try b.save()
        }
        let error = a.performAndWait { () -> CoreDataError? in
            let notes = folder.value(forKey: "notes") as? [ManagedObject] ?? []
            folder.setValue(Array(notes.reversed()), forKey: "notes")
            do { try a.save() } catch let error as CoreDataError { return error } catch { return nil }
            return nil
        }
        #expect(error?.code == .mergeConflict)
        let reader = stack.newContext()
        let texts = try reader.performAndWait {
            (try reader.existingObject(with: folderID).value(forKey: "notes") as? [ManagedObject] ?? []).compactMap { $0.value(forKey: "text") as? String }
        }
        #expect(texts == ["one", "two", "three"])
    }
}
