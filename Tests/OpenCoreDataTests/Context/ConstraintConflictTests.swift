import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Uniqueness constraints broken by a save: under `.error` the save throws
/// `.constraintViolation` with the clashes and writes nothing; the other policies
/// resolve them (RELIABILITY.md §5.2, S6).
///
/// Core Data's `NSConstraintConflict` reference: "A constraint conflict occurs when your
/// data model is using unique constraints and one or more managed objects are violating
/// that constraint", with `databaseObject` (the stored row, if any), `conflictingObjects`
/// and their snapshots; a conflict between objects of the context alone has no database
/// object.
@Suite struct ConstraintConflictTests {
    /// Tags with a unique `code`, an optional `name`, and items pointing at them.
    static func model() -> ManagedObjectModel {
        let tag = EntityDescription(name: "Tag", properties: [
            AttributeDescription(name: "code", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "name", type: .string),
        ])
        tag.uniquenessConstraints = [["code"]]
        let item = EntityDescription(name: "Item", properties: [AttributeDescription(name: "title", type: .string)])
        let items = RelationshipDescription(name: "items", destination: item, toMany: true, deleteRule: .cascade)
        let itemTag = RelationshipDescription(name: "tag", destination: tag, deleteRule: .nullify)
        items.setInverse(itemTag)
        tag.properties += [items]
        item.properties += [itemTag]
        return ManagedObjectModel(entities: [tag, item])
    }

    static let policies: [MergePolicy] = [.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]

    /// Every tag in the store, by ID, with its name and the titles of its items.
    private func storedTags(_ stack: TestStack) throws -> [ManagedObjectID: (name: String?, items: Set<String>)] {
        let reader = stack.newContext()
        return try reader.performAndWait {
            var tags: [ManagedObjectID: (name: String?, items: Set<String>)] = [:]
            for tag in try reader.fetch(FetchRequest<ManagedObject>(entityName: "Tag")) {
                let items = (tag.value(forKey: "items") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "title") as? String }
                tags[tag.objectID] = (tag.value(forKey: "name") as? String, Set(items))
            }
            return tags
        }
    }

    /// Saves `context` under `policy`, which must resolve every clash and leave the graph
    /// sound, and returns the one tag stored afterwards.
    private func saveResolving(_ context: ManagedObjectContext, under policy: MergePolicy, in stack: TestStack) throws
        -> (id: ManagedObjectID, tag: (name: String?, items: Set<String>)) {
        try context.performAndWait {
            context.mergePolicy = policy
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(InvariantChecker.check(context) == [])
        let tags = try storedTags(stack)
        #expect(tags.count == 1)
        let (id, tag) = try #require(tags.first)
        return (id, tag)
    }

    private func storedItemCount(_ stack: TestStack) throws -> Int {
        let reader = stack.newContext()
        return try reader.performAndWait { try reader.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
    }

    // MARK: - A clash with a stored row

    /// Stored tag "a" ("stored", with item "old"); the context inserts another tag "a"
    /// (name nil) with a new item "new" pointing at it.
    private func storedRowClash(_ kind: StoreKind) throws -> (TestStack, ManagedObjectContext, stored: ManagedObjectID, new: ManagedObject, item: ManagedObject) {
        let stack = try TestStack(model: Self.model(), kind: kind)
        let storedID = try stack.context.performAndWait {
            let tag = stack.insert("Tag", ["code": "a", "name": "stored"])
            _ = stack.insert("Item", ["title": "old", "tag": tag])
            try stack.context.save()
            return tag.objectID
        }
        let context = stack.newContext()
        let (new, item) = context.performAndWait {
            let tag = EntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("a", forKey: "code")
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("new", forKey: "title")
            item.setValue(tag, forKey: "tag")
            return (tag, item)
        }
        return (stack, context, storedID, new, item)
    }

    @Test(arguments: StoreKind.allCases)
    func aClashWithAStoredRowUnderErrorThrowsWithTheConflict(kind: StoreKind) throws {
        let (stack, context, storedID, new, _) = try storedRowClash(kind)
        let error = try #require(context.performAndWait { caughtError { try context.save() } })
        #expect(error.code == .constraintViolation && error.code.rawValue == 133021)
        let conflict = try #require(error.constraintConflicts.first)
        #expect(error.constraintConflicts.count == 1)
        #expect(conflict.constraint == ["code"])
        #expect(conflict.constraintValues == ["code": .string("a")])
        #expect(conflict.databaseObjectID == storedID)
        #expect(conflict.databaseSnapshot?["name"] == .string("stored"))
        #expect(conflict.conflictingObjectIDs == [new.objectID])
        #expect(conflict.conflictingSnapshots == [[:]])
        // Nothing written; the context keeps its changes.
        #expect(try storedTags(stack).count == 1)
        #expect(try storedItemCount(stack) == 1)
        context.performAndWait { #expect(context.hasChanges && context.insertedObjects.count == 2) }
    }

    @Test(arguments: StoreKind.allCases, Self.policies)
    func aClashWithAStoredRowIsResolved(kind: StoreKind, policy: MergePolicy) throws {
        let (stack, context, storedID, new, item) = try storedRowClash(kind)
        let (survivorID, survivor) = try saveResolving(context, under: policy, in: stack)
        // Every item points at the survivor: the new one, and the stored one when the
        // stored row was the one deleted.
        #expect(survivor.items == ["old", "new"])
        switch policy.mergeType {
        case .mergeByPropertyObjectTrumpMergePolicyType:
            #expect(survivorID == storedID)
            #expect(survivor.name == nil)   // the new object's values, nils included
        case .mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType:
            #expect(survivorID == storedID)
            #expect(survivor.name == "stored")
        default:
            #expect(survivorID != storedID)
            #expect(survivorID == new.objectID)
            #expect(survivor.name == nil)
        }
        try context.performAndWait {
            #expect((item.value(forKey: "tag") as? ManagedObject)?.objectID == survivorID)
            // A deleted duplicate left the context with the save (as in Core Data, a
            // saved deletion no longer reads `isDeleted`).
            #expect((new.managedObjectContext == nil) == (survivorID != new.objectID))
            // A second save has no conflict.
            context.mergePolicy = .error
            item.setValue("newer", forKey: "title")
            try context.save()
        }
    }

    // MARK: - Two inserted duplicates

    /// The context inserts tags "b" named "first" and "second", and an item pointing at
    /// the second.
    private func insertedDuplicates(_ kind: StoreKind) throws -> (TestStack, ManagedObjectContext, first: ManagedObject, second: ManagedObject, item: ManagedObject) {
        let stack = try TestStack(model: Self.model(), kind: kind)
        let context = stack.newContext()
        let (first, second, item) = context.performAndWait {
            let first = EntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            first.setValue("b", forKey: "code")
            first.setValue("first", forKey: "name")
            let second = EntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            second.setValue("b", forKey: "code")
            second.setValue("second", forKey: "name")
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("of second", forKey: "title")
            item.setValue(second, forKey: "tag")
            return (first, second, item)
        }
        return (stack, context, first, second, item)
    }

    @Test(arguments: StoreKind.allCases)
    func insertedDuplicatesUnderErrorThrowWithTheConflict(kind: StoreKind) throws {
        let (stack, context, first, second, _) = try insertedDuplicates(kind)
        let error = try #require(context.performAndWait { caughtError { try context.save() } })
        #expect(error.code == .constraintViolation)
        let conflict = try #require(error.constraintConflicts.first)
        #expect(error.constraintConflicts.count == 1)
        #expect(conflict.databaseObjectID == nil && conflict.databaseSnapshot == nil)
        #expect(conflict.conflictingObjectIDs == [first.objectID, second.objectID])
        #expect(try storedTags(stack).isEmpty)
        #expect(try storedItemCount(stack) == 0)
        context.performAndWait { #expect(context.insertedObjects.count == 3) }
    }

    @Test(arguments: StoreKind.allCases, Self.policies)
    func insertedDuplicatesAreResolved(kind: StoreKind, policy: MergePolicy) throws {
        let (stack, context, first, second, item) = try insertedDuplicates(kind)
        let (survivorID, survivor) = try saveResolving(context, under: policy, in: stack)
        #expect(survivor.items == ["of second"])
        let (expectedSurvivor, expectedName): (ManagedObject, String) = switch policy.mergeType {
        case .mergeByPropertyObjectTrumpMergePolicyType: (first, "second")
        case .overwriteMergePolicyType: (second, "second")
        default: (first, "first")
        }
        #expect(survivorID == expectedSurvivor.objectID)
        #expect(survivor.name == expectedName)
        context.performAndWait {
            #expect((item.value(forKey: "tag") as? ManagedObject) === expectedSurvivor)
            #expect(expectedSurvivor.managedObjectContext === context)
            #expect((expectedSurvivor === first ? second : first).managedObjectContext == nil)
        }
    }

    // MARK: - A changed object clashing

    /// Under rollback a changed object that takes a stored row's value is refreshed: its
    /// change is dropped and nothing else is written.
    @Test(arguments: StoreKind.allCases)
    func rollbackRefreshesAChangedObject(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        let changedID = try stack.context.performAndWait {
            _ = stack.insert("Tag", ["code": "a", "name": "one"])
            let other = stack.insert("Tag", ["code": "u", "name": "two"])
            try stack.context.save()
            return other.objectID
        }
        let context = stack.newContext()
        let changed = try context.performAndWait { try context.existingObject(with: changedID) }
        try context.performAndWait {
            changed.setValue("a", forKey: "code")
            #expect(caughtError { try context.save() }?.constraintConflicts.first?.conflictingObjectIDs == [changedID])
            context.mergePolicy = .rollback
            try context.save()
            #expect(!context.hasChanges)
            #expect(changed.value(forKey: "code") as? String == "u")
        }
        #expect(try storedTags(stack).values.map(\.name).sorted { ($0 ?? "") < ($1 ?? "") } == ["one", "two"])
    }
}
