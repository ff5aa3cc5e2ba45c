import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct FaultingTests {
    @Test func fetchedObjectsAreFaultsUntilTouched() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let parent = stack.insert("Item", ["title": "p"])
            _ = stack.insert("Item", ["title": "c", "parent": parent])
            try stack.context.save()
            stack.context.reset()
            let items = try stack.fetch("Item")
            let allFaults = items.allSatisfy { $0.isFault }
            #expect(allFaults)
            let child = try #require(items.first { $0.value(forKey: "title") as? String == "c" })
            #expect(!child.isFault)
            let loadedParent = try #require(child.value(forKey: "parent") as? ManagedObject)
            #expect(items.contains { $0 === loadedParent })
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.returnsObjectsAsFaults = false
            stack.context.reset()
            let loaded = try stack.context.fetch(request)
            #expect(loaded.allSatisfy { !$0.isFault })
        }
    }

    @Test func objectWithIDFaultsFromTheRowCacheWithoutTheStore() throws {
        let stack = try TestStack(model: Models.nestedList())
        let id = try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "cached"])
            try stack.context.save()
            stack.context.reset()
            _ = try stack.fetch("Item")  // reading the row puts it in the coordinator's cache
            return item.objectID
        }
        // Another context of the same coordinator reads the row from the cache: no statement
        // reads a row.
        let sql = stack.capturingSQL {
            let other = stack.newContext()
            other.performAndWait {
                let object = other.object(with: id)
                #expect(object.isFault)
                #expect(object.value(forKey: "title") as? String == "cached")
            }
        }
        #expect(sql == ["PRAGMA data_version"], "only the row cache's check for other connections' commits; no row is read")
    }

    /// The row cache used to serve rows another connection (another coordinator, another
    /// process) had changed or deleted since, forever: `PRAGMA data_version` now tells the
    /// coordinator to read the store again.
    @Test func rowsChangedByAnotherConnectionAreNotServedFromTheCache() throws {
        let stack = try TestStack(model: Models.nestedList())
        let ids = try stack.context.performAndWait {
            let kept = stack.insert("Item", ["title": "cached"])
            let removed = stack.insert("Item", ["title": "removed"])
            try stack.context.save()
            stack.context.reset()
            _ = try stack.fetch("Item")
            return (kept.objectID, removed.objectID)
        }
        let inspector = SQLiteInspector(stack.storeURL!)
        try inspector.execute("UPDATE ZITEM SET ZTITLE = 'changed', Z_OPT = Z_OPT + 1 WHERE ZTITLE = 'cached'")
        try inspector.execute("DELETE FROM ZITEM WHERE ZTITLE = 'removed'")
        let other = stack.newContext()
        other.performAndWait {
            #expect(other.object(with: ids.0).value(forKey: "title") as? String == "changed")
            let removed = other.object(with: ids.1)
            _ = removed.value(forKey: "title")
            #expect(removed.isDeleted)
        }
    }

    @Test func aFaultWhoseRowWasDeletedElsewhereReadsAsDeleted() throws {
        let stack = try TestStack(model: Models.nestedList())
        let other = stack.newContext()
        let id = try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "doomed"])
            try stack.context.save()
            return item.objectID
        }
        try other.performAndWait {
            other.delete(try other.existingObject(with: id))
            try other.save()
        }
        stack.context.performAndWait {
            stack.context.reset()
            let fault = stack.context.object(with: id)
            #expect(fault.value(forKey: "title") == nil)
            #expect(fault.isDeleted)
            #expect(!fault.isFault)
        }
    }

    @Test func refreshDiscardsOrMergesChanges() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "saved", "order": 1])
            try stack.context.save()
            item.setValue("unsaved", forKey: "title")
            stack.context.refresh(item, mergeChanges: true)
            #expect(item.value(forKey: "title") as? String == "unsaved")
            #expect(item.hasChanges)
            stack.context.refresh(item, mergeChanges: false)
            #expect(item.isFault)
            #expect(item.value(forKey: "title") as? String == "saved")
            #expect(!stack.context.hasChanges)
        }
    }

    @Test func toManyRelationshipsLoadLazily() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let parent = stack.insert("Item", ["title": "p"])
            for index in 0..<3 { _ = stack.insert("Item", ["title": "c\(index)", "parent": parent]) }
            try stack.context.save()
            stack.context.reset()
            let loaded = try #require(try stack.fetch("Item", "parent == nil").first)
            #expect(loaded.toMany.isEmpty)
            #expect((loaded.value(forKey: "children") as? Set<ManagedObject>)?.count == 3)
            #expect(loaded.toMany.count == 1)
        }
    }
}
