import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// A child's save meeting a parent that changed the same object since the child read it
/// is resolved by the child's merge policy, as a conflict with the store is: Core Data's
/// merge policies apply "between a child and its parent context" too.
@Suite struct NestedContextMergePolicyTests {
    /// The outcome in the parent of: the parent renames "a", the child reorders it (disjoint
    /// properties of one object), then the child saves under `policy`.
    @Test(arguments: StoreKind.allCases, [
        (MergePolicy.mergeByPropertyStoreTrump, "parent", Int64(7)),
        (MergePolicy.mergeByPropertyObjectTrump, "parent", Int64(7)),
        (MergePolicy.overwrite, "a", Int64(7)),
        (MergePolicy.rollback, "parent", Int64(0)),
    ])
    func disjointEditsOfChildAndParentAreResolvedByTheChildsPolicy(kind: StoreKind, outcome: (policy: MergePolicy, title: String, order: Int64)) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "a", "order": Int64(0)])
            try stack.context.save()
        }
        let parent = stack.context
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        child.mergePolicy = outcome.policy
        let a = try child.performAndWait { try child.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first }
        let item = try #require(a)
        try parent.performAndWait {
            try stack.fetch("Item").first?.setValue("parent", forKey: "title")
        }
        try child.performAndWait {
            item.setValue(Int64(7), forKey: "order")
            try child.save()
            #expect(!child.hasChanges)
            #expect(item.value(forKey: "title") as? String == outcome.title, "the child shows the outcome")
            #expect(item.value(forKey: "order") as? Int64 == outcome.order)
        }
        try parent.performAndWait {
            let inParent = try #require(parent.registeredObject(for: item.objectID))
            #expect(inParent.value(forKey: "title") as? String == outcome.title)
            #expect(inParent.value(forKey: "order") as? Int64 == outcome.order)
            try parent.save()
        }
        try child.performAndWait {
            item.setValue("again", forKey: "title")
            child.mergePolicy = .error
            try child.save()   // no conflict left
        }
    }
}
