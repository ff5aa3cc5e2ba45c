import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// A save is checked against the rows its changes were decided on, even when the objects
/// read were released or re-read in between (found by ContextStressTests: two contexts
/// renumbering one list could both save under `.error`).
@Suite struct ReadBasisConflictTests {
    /// root → list → [a (order 0), b (order 1)]; returns the list's ID.
    static func seed(_ stack: TestStack) throws -> ManagedObjectID {
        try stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "root"])
            let list = stack.insert("Item", ["title": "list", "parent": root])
            _ = stack.insert("Item", ["title": "a", "order": Int64(0), "parent": list])
            _ = stack.insert("Item", ["title": "b", "order": Int64(1), "parent": list])
            try stack.context.save()
            return list.objectID
        }
    }

    /// Another context appends "c" to the list (order = its count) and saves.
    static func append(in stack: TestStack, to list: ManagedObjectID) throws {
        let other = stack.newContext()
        try other.performAndWait {
            let owner = other.object(with: list)
            let count = (owner.value(forKey: "children") as? Set<ManagedObject>)?.count ?? 0
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: other)
            item.setValue("c", forKey: "title")
            item.setValue(Int64(count), forKey: "order")
            item.setValue(owner, forKey: "parent")
            try other.save()
        }
    }

    static func saveError(_ context: ManagedObjectContext) -> CoreDataError? {
        context.performAndWait {
            do { try context.save(); return nil } catch { return error as? CoreDataError }
        }
    }

    /// The list's owner is released between the delete (decided on the list as read) and
    /// the save, whose delete rules change the owner: the save must still be checked
    /// against the owner's version as read, not as it is when the rules run.
    @Test(arguments: StoreKind.allCases)
    func aDeleteRuleChangesTheOwnerAsReadWhenTheDeleteWasDecided(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let list = try Self.seed(stack)
        let editor = stack.newContext()
        try editor.performAndWait {
            let items = try editor.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            let a = try #require(items.first { $0.value(forKey: "title") as? String == "a" })
            let b = try #require(items.first { $0.value(forKey: "title") as? String == "b" })
            b.setValue(Int64(0), forKey: "order")
            editor.delete(a)
        }
        try Self.append(in: stack, to: list)
        let error = Self.saveError(editor)
        #expect(error?.code == .mergeConflict, "the list changed since it was read (c appended at order 2)")
        #expect(error?.conflicts.map(\.sourceObjectID) == [list])
    }

    /// A child context's changes to an object are checked against the row the child read
    /// through its parent, also when the parent reads that row again (newer) only when the
    /// child's save arrives.
    @Test(arguments: StoreKind.allCases)
    func aChildsSaveIsCheckedAgainstTheRowItRead(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let list = try Self.seed(stack)
        let parent = stack.newContext()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try child.performAndWait {
            let items = try child.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            let owner = try #require(items.first { $0.objectID == list })
            let siblings = items.filter { ($0.value(forKey: "parent") as? ManagedObject)?.objectID == list }
            try Self.append(in: stack, to: list)
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: child)
            item.setValue("d", forKey: "title")
            item.setValue(Int64(siblings.count), forKey: "order")
            item.setValue(owner, forKey: "parent")
        }
        let error = Self.saveError(child)
        #expect(error?.code == .mergeConflict, "the parent holds the list newer than the child read it")
        #expect(child.performAndWait { child.hasChanges }, "the child keeps its changes")
        #expect(parent.performAndWait { !parent.hasChanges }, "nothing reached the parent")
    }
}
