import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Merge policies on relationships: both sides of every relationship agree after a
/// resolution, under every policy, and the context shows what the store holds.
///
/// Core Data's `NSMergeConflict` reference: snapshots "include values for all attributes
/// and to-one relationships, but not to-many relationships … To-many relationships must
/// be pulled from the persistent store as needed" — so a to-one is merged like an
/// attribute, and a to-many is read from the store and merged with the context's edits
/// ("Due to the complexity of merging to-many relationships…", NSMergePolicy reference).
@Suite struct MergePolicyRelationshipTests {
    static let policies: [MergePolicy] = [.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]

    /// Saved lists "p1", "p2", "p3" and an item "x" under p1.
    private func lists(_ kind: StoreKind) throws -> (TestStack, [String: ManagedObjectID]) {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let ids = try stack.context.performAndWait {
            var objects: [String: ManagedObject] = [:]
            for name in ["p1", "p2", "p3"] { objects[name] = stack.insert("Item", ["title": name]) }
            objects["x"] = stack.insert("Item", ["title": "x", "parent": objects["p1"]!])
            try stack.context.save()
            return objects.mapValues(\.objectID)
        }
        return (stack, ids)
    }

    /// Loads the objects named by `ids` in `context` with their children read.
    private func load(_ ids: [String: ManagedObjectID], in context: ManagedObjectContext) throws -> [String: ManagedObject] {
        try context.performAndWait {
            try ids.mapValues { id in
                let object = try context.existingObject(with: id)
                _ = object.value(forKey: "children")
                return object
            }
        }
    }

    private func storedParent(of id: ManagedObjectID, in stack: TestStack) -> ManagedObjectID? {
        let reader = stack.newContext()
        return reader.performAndWait { ((try? reader.existingObject(with: id))?.value(forKey: "parent") as? ManagedObject)?.objectID }
    }

    private func storedChildren(of id: ManagedObjectID, in stack: TestStack) -> Set<String> {
        let reader = stack.newContext()
        return reader.performAndWait {
            Set(((try? reader.existingObject(with: id))?.value(forKey: "children") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "title") as? String })
        }
    }

    /// A moves x to p2 and saves; B moves x to p3 and saves under the policy. The store
    /// keeps p2 under StoreTrump and Rollback, p3 under ObjectTrump and Overwrite
    /// (RELIABILITY.md §5.2, S5); in B, x and the three lists agree with it.
    @Test(arguments: StoreKind.allCases, Self.policies)
    func aToOneMovedByBoth(kind: StoreKind, policy: MergePolicy) throws {
        let (stack, ids) = try lists(kind)
        let first = stack.newContext(), second = stack.newContext()
        let inB = try load(ids, in: second)
        try first.performAndWait {
            try first.existingObject(with: ids["x"]!).setValue(try first.existingObject(with: ids["p2"]!), forKey: "parent")
            try first.save()
        }
        let winner = [.mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType].contains(policy.mergeType) ? "p2" : "p3"
        try second.performAndWait {
            inB["x"]!.setValue(inB["p3"]!, forKey: "parent")
            second.mergePolicy = policy
            try second.save()
            #expect(!second.hasChanges)
            #expect((inB["x"]!.value(forKey: "parent") as? ManagedObject)?.objectID == ids[winner])
            for name in ["p1", "p2", "p3"] {
                let holds = (inB[name]!.value(forKey: "children") as? Set<ManagedObject> ?? []).contains(inB["x"]!)
                #expect(holds == (name == winner), "\(name)")
            }
        }
        #expect(InvariantChecker.check(second) == [])
        #expect(storedParent(of: ids["x"]!, in: stack) == ids[winner])
        #expect(storedChildren(of: ids[winner]!, in: stack) == ["x"])
        // A second save has no conflict.
        try second.performAndWait {
            second.mergePolicy = .error
            inB["x"]!.setValue("moved", forKey: "title")
            try second.save()
        }
    }

    /// A adds "a-child" to p1 and saves; B adds "b-child" to p1 and saves under the
    /// policy. Membership of a one-to-many is stored in each child's row, so both
    /// children are under p1 under every policy, in the store and in B.
    @Test(arguments: StoreKind.allCases, Self.policies)
    func aToManyAddedToByBoth(kind: StoreKind, policy: MergePolicy) throws {
        let (stack, ids) = try lists(kind)
        let first = stack.newContext(), second = stack.newContext()
        let inB = try load(ids, in: second)
        try first.performAndWait {
            let child = EntityDescription.insertNewObject(forEntityName: "Item", into: first)
            child.setValue("a-child", forKey: "title")
            child.setValue(try first.existingObject(with: ids["p1"]!), forKey: "parent")
            try first.save()
        }
        try second.performAndWait {
            let child = EntityDescription.insertNewObject(forEntityName: "Item", into: second)
            child.setValue("b-child", forKey: "title")
            child.setValue(inB["p1"]!, forKey: "parent")
            second.mergePolicy = policy
            try second.save()
            #expect(!second.hasChanges)
            let titles = Set((inB["p1"]!.value(forKey: "children") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "title") as? String })
            #expect(titles == ["x", "a-child", "b-child"])
        }
        #expect(InvariantChecker.check(second) == [])
        #expect(storedChildren(of: ids["p1"]!, in: stack) == ["x", "a-child", "b-child"])
        try second.performAndWait {
            second.mergePolicy = .error
            inB["p1"]!.setValue("renamed", forKey: "title")
            try second.save()
        }
    }

    /// A many-to-many relationship added to by both (notes and tags): the trump
    /// policies keep both memberships; inverses agree under every policy.
    @Test(arguments: StoreKind.allCases, Self.policies)
    func aManyToManyAddedToByBoth(kind: StoreKind, policy: MergePolicy) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        let (n1, n2, tagID) = try stack.context.performAndWait {
            let n1 = stack.insert("Note", ["text": "one"]), n2 = stack.insert("Note", ["text": "two"])
            let tag = stack.insert("Tag", ["name": "t"])
            try stack.context.save()
            return (n1.objectID, n2.objectID, tag.objectID)
        }
        let first = stack.newContext(), second = stack.newContext()
        let (tagInB, noteInB) = try second.performAndWait {
            let tag = try second.existingObject(with: tagID)
            _ = tag.value(forKey: "notes")
            return (tag, try second.existingObject(with: n2))
        }
        try first.performAndWait {
            try first.existingObject(with: tagID).mutableSetValue(forKey: "notes").add(try first.existingObject(with: n1))
            try first.save()
        }
        try second.performAndWait {
            tagInB.mutableSetValue(forKey: "notes").add(noteInB)
            second.mergePolicy = policy
            try second.save()
            #expect(!second.hasChanges)
        }
        #expect(InvariantChecker.check(second) == [])
        let reader = stack.newContext()
        let stored = reader.performAndWait {
            Set(((try? reader.existingObject(with: tagID))?.value(forKey: "notes") as? Set<ManagedObject> ?? []).map(\.objectID))
        }
        let inContext = second.performAndWait { Set((tagInB.value(forKey: "notes") as? Set<ManagedObject> ?? []).map(\.objectID)) }
        #expect(inContext == stored)
        switch policy.mergeType {
        case .mergeByPropertyStoreTrumpMergePolicyType, .mergeByPropertyObjectTrumpMergePolicyType: #expect(stored == [n1, n2])
        case .overwriteMergePolicyType: #expect(stored.contains(n2))
        default: #expect(stored.contains(n1))
        }
    }

    /// A renames list p1 and saves; B deletes p1 (cascading to its item x) and saves
    /// under the policy. StoreTrump and Rollback undo the delete and its cascade (the
    /// table's "B's delete undone"); ObjectTrump and Overwrite delete both.
    @Test(arguments: StoreKind.allCases, Self.policies)
    func undoingADeleteUndoesItsCascade(kind: StoreKind, policy: MergePolicy) throws {
        let (stack, ids) = try lists(kind)
        let first = stack.newContext(), second = stack.newContext()
        let inB = try load(ids, in: second)
        _ = second.performAndWait { inB["x"]!.value(forKey: "title") }
        try first.performAndWait {
            try first.existingObject(with: ids["p1"]!).setValue("renamed", forKey: "title")
            try first.save()
        }
        let undone = [.mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType].contains(policy.mergeType)
        try second.performAndWait {
            second.delete(inB["p1"]!)
            second.mergePolicy = policy
            try second.save()
            #expect(!second.hasChanges)
            if undone {
                #expect(inB["p1"]!.value(forKey: "title") as? String == "renamed")
                #expect((inB["x"]!.value(forKey: "parent") as? ManagedObject) === inB["p1"]!)
                #expect((inB["p1"]!.value(forKey: "children") as? Set<ManagedObject>) == [inB["x"]!])
            } else {
                #expect(inB["p1"]!.managedObjectContext == nil && inB["x"]!.managedObjectContext == nil)
            }
        }
        #expect(InvariantChecker.check(second) == [])
        #expect(storedParent(of: ids["x"]!, in: stack) == (undone ? ids["p1"] : nil))
        #expect(storedChildren(of: ids["p1"]!, in: stack) == (undone ? ["x"] : []))
    }

    /// A adds a child to p1 and saves; B deletes p1 and saves under the policy. Where
    /// the delete stands, it cascades to the child the store gained, so no row is left
    /// pointing at a deleted parent.
    @Test(arguments: StoreKind.allCases, Self.policies)
    func aDeleteThatStandsCascadesToChildrenTheStoreGained(kind: StoreKind, policy: MergePolicy) throws {
        let (stack, ids) = try lists(kind)
        let first = stack.newContext(), second = stack.newContext()
        let inB = try load(ids, in: second)
        try first.performAndWait {
            let child = EntityDescription.insertNewObject(forEntityName: "Item", into: first)
            child.setValue("a-child", forKey: "title")
            child.setValue(try first.existingObject(with: ids["p1"]!), forKey: "parent")
            try first.save()
        }
        try second.performAndWait {
            second.delete(inB["p1"]!)
            second.mergePolicy = policy
            try second.save()
            #expect(!second.hasChanges)
        }
        #expect(InvariantChecker.check(second) == [])
        let reader = stack.newContext()
        let titles = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "title") as? String }
        }
        let undone = [.mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType].contains(policy.mergeType)
        #expect(Set(titles) == (undone ? ["p1", "p2", "p3", "x", "a-child"] : ["p2", "p3"]))
    }
}
