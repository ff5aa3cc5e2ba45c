import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `setValue` of a value a relationship cannot hold — a string for a to-one, strings for
/// a to-many, an object of another entity — used to trap. It is kept as given, changes
/// nothing else, and fails `save()` with `.validationWrongType`, writing nothing.
@Suite struct RelationshipValueValidationTests {
    private func wrongTypeKeys(_ error: CoreDataError?) -> [String] {
        guard let error else { return [] }
        let all = error.code == .validationMultipleErrors ? error.underlyingErrors : [error]
        return all.filter { $0.code == .validationWrongType }.compactMap(\.key).sorted()
    }

    @Test(arguments: StoreKind.allCases)
    func wrongTypedValuesFailTheSaveAndCanBeFixed(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let list = stack.insert("Item", ["title": "list"])
            let child = stack.insert("Item", ["title": "child", "parent": list])
            try stack.context.save()

            child.setValue("not an item", forKey: "parent")
            list.setValue(["a", "b"], forKey: "children")
            #expect(child.value(forKey: "parent") == nil)
            let error = caughtError { try stack.context.save() }
            #expect(wrongTypeKeys(error) == ["children", "parent"])
            #expect(stack.context.hasChanges)

            // Nothing was written: a fresh context still sees child under list.
            let reader = stack.newContext()
            let storedParent = reader.performAndWait {
                ((try? reader.existingObject(with: child.objectID))?.value(forKey: "parent") as? ManagedObject)?.objectID
            }
            #expect(storedParent == list.objectID)

            child.setValue(list, forKey: "parent")
            list.setValue(Set([child]), forKey: "children")
            try stack.context.save()
            #expect((list.value(forKey: "children") as? Set<ManagedObject>) == [child])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func objectsOfAnotherEntityFailTheSave(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let note = stack.insert("Note", ["text": "n"])
            let tag = stack.insert("Tag", ["name": "t"])
            let folder = stack.insert("Folder", ["name": "f"])
            note.setValue(tag, forKey: "folder")
            note.setValue(Set([folder]), forKey: "tags")
            #expect(note.value(forKey: "folder") == nil)
            #expect((note.value(forKey: "tags") as? Set<ManagedObject>)?.isEmpty == true)
            #expect((folder.value(forKey: "notes") as? [ManagedObject])?.isEmpty == true)
            let error = caughtError { try stack.context.save() }
            #expect(wrongTypeKeys(error) == ["folder", "tags"])
            #expect(error?.message.contains("Tag") == true)

            note.setValue(nil, forKey: "folder")
            note.setValue(nil, forKey: "tags")
            try stack.context.save()
        }
    }

    /// `setPrimitiveValue` of a value a to-one cannot hold used to save NULL silently.
    @Test(arguments: StoreKind.allCases)
    func wrongPrimitiveValuesFailTheSave(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let list = stack.insert("Item", ["title": "list"])
            let child = stack.insert("Item", ["title": "child"])
            child.setPrimitiveValue(42, forKey: "parent")
            #expect(wrongTypeKeys(caughtError { try stack.context.save() }) == ["parent"])
            child.setPrimitiveValue(list, forKey: "parent")
            list.setPrimitiveValue([child], forKey: "children")
            try stack.context.save()
            #expect(child.primitiveValue(forKey: "parent") as? ManagedObjectID == list.objectID)
        }
    }
}
