import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Saving objects whose rows a batch request changed or deleted, before (or without)
/// merging its result: no lost batch values, no silently lost edits, no dangling
/// references, and both stores agree (review1 findings).
@Suite struct AdversarialMergeTests {
    /// Each sample as key/int64/string/parent key, read by a fresh context.
    private func rows(_ stack: TestStack) throws -> [String] {
        let other = stack.newContext()
        return try other.performAndWait {
            try other.fetch(stack.request(sortedBy: ["key"])).map { object in
                let parent = (object.value(forKey: "parent") as? ManagedObject)?.value(forKey: "key") as? String
                return "\(object.value(forKey: "key") ?? "nil")/\(object.value(forKey: "int64") ?? "nil")/\(object.value(forKey: "string") ?? "nil")/\(parent ?? "nil")"
            }
        }
    }

    /// The in-memory store wrote back the whole stale row, so an unmerged batch update's
    /// value was lost; then both stores saved over the batch update without a word. The
    /// batch update bumped the row's version: the save is a conflict that writes nothing,
    /// and once refreshed (keeping the edit) it saves on top of the batch's values.
    @Test(arguments: StoreKind.allCases)
    func savingAfterAnUnmergedBatchUpdateConflictsThenKeepsItsValues(kind: StoreKind) throws {
        let (stack, _, _) = try TestStack.sampleChain(kind)
        try stack.context.performAndWait {
            let mid = try stack.context.fetch(stack.request("key == 'mid'"))[0]
            mid.setValue("edited", forKey: "string")
            let update = BatchUpdateRequest(entityName: "Sample")
            update.propertiesToUpdate = ["int64": Int64(100)]
            _ = try stack.context.execute(update)
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .mergeConflict)
            #expect(error.conflicts.map(\.sourceObjectID) == [mid.objectID])
            #expect(error.conflicts.first.map { [$0.oldVersion, $0.newVersion] } == [1, 2])
            #expect(error.conflicts.first?.persistedSnapshot?["int64"] == .int64(100))
            #expect(error.conflicts.first?.objectSnapshot["string"] == .string("edited"))
            #expect(mid.hasChanges)
            stack.context.refresh(mid, mergeChanges: true)
            try stack.context.save()
        }
        #expect(try rows(stack) == ["leaf/100/nil/mid", "mid/100/edited/root", "root/100/top/nil"])
    }

    /// The SQLite store's UPDATE of a row a batch delete had removed changed nothing and
    /// the save succeeded, losing the edit silently and, for a relationship set to a
    /// deleted object, leaving a reference to a row that no longer exists. Now it is a
    /// merge conflict whose store version is 0 (the row is gone).
    @Test(arguments: StoreKind.allCases)
    func savingChangesToRowsABatchDeleteRemovedFails(kind: StoreKind) throws {
        let (stack, root, mid) = try TestStack.sampleChain(kind)
        try stack.context.performAndWait {
            let objects = try stack.context.fetch(stack.request(sortedBy: ["key"]))
            objects[1].setValue("edited", forKey: "string")
            _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [mid]))
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .mergeConflict)
            #expect(error.conflicts.map(\.newVersion) == [0])
            #expect(error.conflicts.first?.persistedSnapshot == nil)
        }
        #expect(try rows(stack) == ["leaf/nil/nil/nil", "root/nil/top/nil"])

        let (second, secondRoot, _) = try TestStack.sampleChain(kind)
        try second.context.performAndWait {
            let objects = try second.context.fetch(second.request(sortedBy: ["key"]))
            _ = objects[2].value(forKey: "children")
            objects[0].setValue(objects[2], forKey: "parent")
            _ = try second.context.execute(BatchDeleteRequest(objectIDs: [secondRoot]))
            #expect(code { try second.context.save() } == .mergeConflict)
        }
        #expect(try rows(second) == ["leaf/nil/nil/mid", "mid/nil/nil/nil"])
        if kind == .sqlite, let url = second.storeURL {
            #expect(try SQLiteInspector(url).strings("SELECT COUNT(*) FROM ZSAMPLE WHERE ZPARENT IS NOT NULL AND ZPARENT NOT IN (SELECT Z_PK FROM ZSAMPLE)") == ["0"])
        }
        _ = root
    }
}
