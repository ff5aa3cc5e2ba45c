import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// A child added under an item that another context deleted meanwhile: when the policy
/// lets the delete stand, the child follows the delete's cascade rule (found by
/// ContextStressTests: it used to be kept with its parent nullified, a second root).
@Suite struct MergePolicyCascadeTests {
    @Test(arguments: StoreKind.allCases, [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .rollback, .overwrite])
    func aChildAddedUnderAnItemDeletedElsewhere(kind: StoreKind, policy: MergePolicy) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let root = try stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "root"])
            _ = stack.insert("Item", ["title": "list", "parent": root])
            try stack.context.save()
            return root.objectID
        }
        let b = stack.newContext()
        b.mergePolicy = policy
        let list = try b.performAndWait { try b.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first { $0.value(forKey: "title") as? String == "list" } }
        let held = try #require(list)
        try stack.context.performAndWait {
            let list = try stack.fetch("Item", "title == %@", "list")
            for item in list { stack.context.delete(item) }
            try stack.context.save()
        }
        try b.performAndWait {
            let child = EntityDescription.insertNewObject(forEntityName: "Item", into: b)
            child.setValue("child", forKey: "title")
            child.setValue(held, forKey: "parent")
            try b.save()
            #expect(!b.hasChanges)
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let items = try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            let titles = items.compactMap { $0.value(forKey: "title") as? String }.sorted()
            let roots = items.filter { $0.value(forKey: "parent") == nil }.map(\.objectID)
            if policy.mergeType == .overwriteMergePolicyType {
                #expect(titles == ["child", "list", "root"], "overwrite re-inserts the list, with the child under it")
            } else {
                #expect(titles == ["root"], "the delete stands and the child follows its cascade")
            }
            #expect(roots == [root], "exactly one root")
            #expect(InvariantChecker.check(fresh).isEmpty)
        }
    }
}
