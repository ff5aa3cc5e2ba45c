import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct DeleteRuleTests {
    @Test(arguments: StoreKind.allCases)
    func cascadeDeletesTheWholeSubtree(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let (root, child, grandchild, other) = stack.insertItemTree()
            try stack.context.save()
            stack.context.delete(root)
            stack.context.processPendingChanges()
            #expect(Set(stack.context.deletedObjects) == [root, child, grandchild])
            #expect(!other.isDeleted)
            try stack.context.save()
            #expect(try stack.fetch("Item").map { $0.value(forKey: "title") as? String } == ["other"])
            #expect(InvariantChecker.check(stack.context) == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func nullifyRemovesTheDeletedObjectFromTheOtherSide(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "root"])
            let child = stack.insert("Item", ["title": "child", "parent": root])
            try stack.context.save()
            stack.context.delete(child)
            try stack.context.save()
            #expect((root.value(forKey: "children") as? Set<ManagedObject>)?.isEmpty == true)
            #expect(InvariantChecker.check(stack.context) == [])
        }
        if kind == .sqlite {
            let reopened = try stack.reopened()
            try reopened.context.performAndWait {
                let root = try #require(try reopened.fetch("Item").first)
                #expect((root.value(forKey: "children") as? Set<ManagedObject>)?.isEmpty == true)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func denyMakesSaveThrowWhileObjectsAreRelated(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let folder = stack.insert("Folder", ["name": "inbox"])
            let note = stack.insert("Note", ["text": "hello", "folder": folder])
            try stack.context.save()
            stack.context.delete(folder)
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .validationRelationshipDeniedDelete)
            #expect(error.objectID == folder.objectID)
            #expect(error.key == "notes")
            stack.context.rollback()
            #expect(!folder.isDeleted)
            // Once the related note is gone too, the delete goes through.
            stack.context.delete(note)
            stack.context.delete(folder)
            try stack.context.save()
            #expect(try stack.fetch("Folder").isEmpty)
            #expect(InvariantChecker.check(stack.context) == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func noActionLeavesTheOtherSideAlone(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let folder = stack.insert("Folder", ["name": "inbox"])
            let note = stack.insert("Note", ["text": "pinned"])
            folder.setValue(note, forKey: "pinned")
            try stack.context.save()
            stack.context.delete(folder)
            try stack.context.save()
            #expect(!note.isDeleted)
            #expect(try stack.fetch("Note").count == 1)
        }
    }

    @Test func deletingAnInsertedObjectJustDropsIt() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "temp"])
            stack.context.delete(item)
            stack.context.processPendingChanges()
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            try stack.context.save()
            #expect(try stack.fetch("Item").isEmpty)
        }
    }
}
