import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct RelationshipTests {
    @Test func settingAToOneUpdatesBothSidesAtOnce() throws {
        let stack = try TestStack(model: Models.nestedList())
        stack.context.performAndWait {
            let first = stack.insert("Item", ["title": "first"])
            let second = stack.insert("Item", ["title": "second"])
            let child = stack.insert("Item", ["title": "child"])
            child.setValue(first, forKey: "parent")
            #expect(first.value(forKey: "children") as? Set<ManagedObject> == [child])
            child.setValue(second, forKey: "parent")
            #expect((first.value(forKey: "children") as? Set<ManagedObject>)?.isEmpty == true)
            #expect(second.value(forKey: "children") as? Set<ManagedObject> == [child])
            second.mutableSetValue(forKey: "children").remove(child)
            #expect(child.value(forKey: "parent") == nil)
            first.mutableSetValue(forKey: "children").add(child)
            #expect((child.value(forKey: "parent") as? ManagedObject) === first)
            #expect(child.value(forKeyPath: "parent.title") as? String == "first")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func manyToManyIsStoredInAJoinTable(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let swift = stack.insert("Tag", ["name": "swift"])
            let linux = stack.insert("Tag", ["name": "linux"])
            let note = stack.insert("Note", ["text": "a"])
            let other = stack.insert("Note", ["text": "b"])
            note.mutableSetValue(forKey: "tags").union([swift, linux])
            other.setValue(Set([linux]), forKey: "tags")
            #expect((linux.value(forKey: "notes") as? Set<ManagedObject>) == [note, other])
            try stack.context.save()
            note.mutableSetValue(forKey: "tags").remove(linux)
            try stack.context.save()
            #expect((linux.value(forKey: "notes") as? Set<ManagedObject>) == [other])
        }
        guard kind == .sqlite else { return }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let tags = try reopened.fetch("Tag", sortedBy: "name")
            let names = { (tag: ManagedObject) in
                ((tag.value(forKey: "notes") as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "text") as? String }.sorted()
            }
            #expect(tags.map(names) == [["b"], ["a"]])
            // Deleting a note removes its join rows.
            let noteB = try #require(try reopened.fetch("Note", "text == %@", "b").first)
            reopened.context.delete(noteB)
            try reopened.context.save()
            reopened.context.reset()
            let linux = try #require(try reopened.fetch("Tag", "name == %@", "linux").first)
            #expect((linux.value(forKey: "notes") as? Set<ManagedObject>)?.isEmpty == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func orderedToManyKeepsItsOrder(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let folder = stack.insert("Folder", ["name": "f"])
            let notes = (0..<4).map { stack.insert("Note", ["text": "n\($0)"]) }
            let list = folder.mutableOrderedSetValue(forKey: "notes")
            for note in notes { list.append(note) }
            list.move(notes[3], to: 0)
            list.remove(notes[1])
            #expect(list.objects.map { $0.value(forKey: "text") as? String } == ["n3", "n0", "n2"])
            #expect((notes[3].value(forKey: "folder") as? ManagedObject) === folder)
            #expect(notes[1].value(forKey: "folder") == nil)
            try stack.context.save()
            list.insert(notes[1], at: 1)
            try stack.context.save()
        }
        guard kind == .sqlite else { return }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let folder = try #require(try reopened.fetch("Folder").first)
            let texts = (folder.value(forKey: "notes") as? [ManagedObject])?.map { $0.value(forKey: "text") as? String }
            #expect(texts == ["n3", "n1", "n0", "n2"])
        }
    }

    @Test func aRelationshipWithoutInverseIsStored() throws {
        let tag = EntityDescription(name: "Tag", properties: [AttributeDescription(name: "name", type: .string)])
        let note = EntityDescription(name: "Note", properties: [
            AttributeDescription(name: "text", type: .string),
            RelationshipDescription(name: "labels", destination: tag, toMany: true),
            RelationshipDescription(name: "main", destination: tag),
        ])
        let stack = try TestStack(model: ManagedObjectModel(entities: [note, tag]))
        try stack.context.performAndWait {
            let a = stack.insert("Tag", ["name": "a"])
            let b = stack.insert("Tag", ["name": "b"])
            _ = stack.insert("Note", ["text": "n", "labels": Set([a, b]), "main": a])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let loaded = try #require(try reopened.fetch("Note").first)
            #expect((loaded.value(forKey: "labels") as? Set<ManagedObject>)?.count == 2)
            #expect((loaded.value(forKey: "main") as? ManagedObject)?.value(forKey: "name") as? String == "a")
        }
    }
}
