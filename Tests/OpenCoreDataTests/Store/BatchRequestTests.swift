import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Batch insert, update and delete requests run in the store, on both stores, and their
/// results merge into contexts.
@Suite struct BatchRequestTests {
    private func keys(_ stack: TestStack, _ format: String? = nil) throws -> [String] {
        try stack.context.performAndWait {
            stack.context.reset()
            return try stack.keys(stack.request(format, sortedBy: ["key"]))
        }
    }

    // MARK: - Insert

    @Test(arguments: StoreKind.allCases)
    func batchInsertConvertsValuesAndContinuesPrimaryKeys(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let request = BatchInsertRequest(entityName: "Sample", objects: [
                ["key": "b0", "int64": 7, "int16": 3, "double": 1],
                ["key": "b1", "flag": true, "date": Date(timeIntervalSinceReferenceDate: 5)],
            ])
            request.resultType = .objectIDs
            let ids = try #require(try stack.context.execute(request).result as? [ManagedObjectID])
            #expect(ids.map(\.primaryKey) == [11, 12])
            #expect(stack.context.registeredObjects.isEmpty, "no objects are created")
            let b0 = try stack.context.existingObject(with: ids[0])
            #expect(b0.value(forKey: "int64") as? Int64 == 7)
            #expect(b0.value(forKey: "int16") as? Int16 == 3)
            #expect(b0.value(forKey: "double") as? Double == 1)
            let next = stack.insert("Sample", ["key": "later"])
            try stack.context.save()
            #expect(next.objectID.primaryKey == 13)

            var remaining = 3
            let handler = BatchInsertRequest(entityName: "Sample") { dictionary in
                guard remaining > 0 else { return true }
                remaining -= 1
                dictionary["key"] = "h\(remaining)"
                return false
            }
            handler.resultType = .count
            #expect(try stack.context.execute(handler).result as? Int == 3)
        }
        #expect(try keys(stack, "int64 == nil AND flag == nil").contains("h0"))
    }

    @Test(arguments: StoreKind.allCases)
    func aFailingBatchInsertChangesNothing(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        try stack.context.performAndWait { () throws in
            let cases: [([[String: Any]], CoreDataError.Code)] = [
                ([["name": "ok", "small": 1], ["name": "bad", "small": "many"]], .validationWrongType),
                ([["name": "ok"], ["small": 2]], .validationMissingMandatoryProperty),
                ([["name": "ok", "nope": 1]], .invalidFetchRequest),
                ([["name": "one", "code": "ABC"], ["name": "two", "code": "ABC"]], .constraintViolation),
            ]
            for (objects, expected) in cases {
                #expect(code { _ = try stack.context.execute(BatchInsertRequest(entityName: "Thing", objects: objects)) } == expected)
                #expect(try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Thing")) == 0)
            }
            #expect(code { _ = try stack.context.execute(BatchInsertRequest(entityName: "Nope", objects: [[:]])) } == .invalidFetchRequest)
        }
    }

    // MARK: - Update

    @Test(arguments: StoreKind.allCases)
    func batchUpdateComputesInTheStore(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            // Cache the rows first: the update must not leave them stale.
            _ = try stack.context.fetch(stack.request())
            let request = BatchUpdateRequest(entityName: "Sample")
            request.predicate = try CDPredicate(format: "group == 'even'")
            request.propertiesToUpdate = [
                "int64": CDExpression(forFunction: "add:to:", arguments: [.keyPath("int64"), .constant(.int64(100))]),
                "double": CDExpression(forFunction: "divide:by:", arguments: [.keyPath("int64"), .constant(.int64(2))]),
                "int32": CDExpression(forFunction: "divide:by:", arguments: [.keyPath("int64"), .constant(.int64(0))]),
                "string": "changed",
            ]
            request.resultType = .updatedObjectIDsResultType
            let ids = try #require(try stack.context.execute(request).result as? [ManagedObjectID])
            #expect(ids.count == 5)
            stack.context.reset()
            let k0 = try stack.context.fetch(stack.request("key == 'k0'"))[0]
            #expect(k0.value(forKey: "int64") as? Int64 == 109)
            #expect(k0.value(forKey: "double") as? Double == 4.5)
            #expect(k0.value(forKey: "int32") == nil)
            #expect(k0.value(forKey: "string") as? String == "changed")
            let k1 = try stack.context.fetch(stack.request("key == 'k1'"))[0]
            #expect(k1.value(forKey: "int64") as? Int64 == 8)

            request.propertiesToUpdate = ["int64": "many"]
            #expect(code { _ = try stack.context.execute(request) } == .validationWrongType)
            request.propertiesToUpdate = ["children": 1]
            #expect(code { _ = try stack.context.execute(request) } == .invalidFetchRequest)
            request.propertiesToUpdate = ["int64": CDExpression(forFunction: "sqrt:", arguments: [.keyPath("int64")])]
            #expect(code { _ = try stack.context.execute(request) } == .invalidFetchRequest)
            request.propertiesToUpdate = ["int64": 1]
            request.resultType = .updatedObjectsCountResultType
            request.predicate = try CDPredicate(format: "int64 > 100")
            #expect(try stack.context.execute(request).result as? Int == 5)
        }
        if kind == .sqlite, let url = stack.storeURL {
            #expect(try SQLiteInspector(url).strings("SELECT Z_OPT FROM ZSAMPLE WHERE ZKEY = 'k0'") == ["3"])
            #expect(try SQLiteInspector(url).strings("SELECT Z_OPT FROM ZSAMPLE WHERE ZKEY = 'k1'") == ["1"])
        }
    }

    // MARK: - Delete

    @Test(arguments: StoreKind.allCases)
    func batchDeleteCascadesAndNullifies(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insertItemTree()
            try stack.context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = try CDPredicate(format: "title == 'root'")
            let delete = BatchDeleteRequest(fetchRequest: request)
            delete.resultType = .resultTypeCount
            #expect(try stack.context.execute(delete).result as? Int == 3)
            stack.context.reset()
            #expect(try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map { $0.value(forKey: "title") as? String } == ["other"])
        }

        let samples = try TestStack.sampleChain(kind)
        try samples.0.context.performAndWait {
            let context = samples.0.context
            let mid = try context.existingObject(with: samples.mid)
            let delete = BatchDeleteRequest(objectIDs: [samples.mid])
            delete.resultType = .resultTypeObjectIDs
            let result = try context.execute(delete)
            #expect(result.result as? [ManagedObjectID] == [samples.mid])
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [DeletedObjectsKey: [samples.mid]], into: [context])
            #expect(mid.isDeleted)
            #expect(context.registeredObject(for: samples.mid) == nil)
            context.reset()
            let leaf = try context.fetch(samples.0.request("key == 'leaf'"))[0]
            #expect(leaf.value(forKey: "parent") == nil, "no foreign key is left dangling")
            let root = try context.existingObject(with: samples.root)
            #expect((root.value(forKey: "children") as? Set<ManagedObject>)?.isEmpty == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchDeleteClearsManyToManyRowsAndHonoursDeny(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let note = stack.insert("Note", ["text": "n"])
            let tag = stack.insert("Tag", ["name": "t"])
            note.mutableSetValue(forKey: "tags").add(tag)
            let folder = stack.insert("Folder", ["name": "f"])
            note.setValue(folder, forKey: "folder")
            folder.setValue(note, forKey: "pinned")
            try stack.context.save()
            let noteID = note.objectID, tagID = tag.objectID, folderID = folder.objectID

            #expect(code { _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [folderID])) } == .validationRelationshipDeniedDelete)
            #expect(code { _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [folderID, noteID])) } == .invalidFetchRequest)
            stack.context.reset()
            #expect(try stack.context.existingObject(with: folderID).value(forKey: "name") as? String == "f")

            _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [tagID]))
            stack.context.reset()
            #expect((try stack.context.existingObject(with: noteID).value(forKey: "tags") as? Set<ManagedObject>)?.isEmpty == true)

            _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [noteID]))
            stack.context.reset()
            let reloaded = try stack.context.existingObject(with: folderID)
            #expect(reloaded.value(forKey: "pinned") == nil)
            #expect((reloaded.value(forKey: "notes") as? [ManagedObject] ?? []).isEmpty)
            _ = try stack.context.execute(BatchDeleteRequest(objectIDs: [folderID]))
            stack.context.reset()
            #expect(try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Folder")) == 0)
        }
        if kind == .sqlite, let url = stack.storeURL {
            let joins = try SQLiteInspector(url).strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA')")
            #expect(!joins.isEmpty)
            for join in joins { #expect(try SQLiteInspector(url).strings("SELECT count(*) FROM \(join)") == ["0"], "\(join)") }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func mergingUpdatedIDsRefreshesObjects(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let objects = try stack.context.fetch(stack.request(sortedBy: ["key"]))
            #expect(objects[0].value(forKey: "string") == nil)
            objects[1].setValue("mine", forKey: "group")
            let request = BatchUpdateRequest(entityName: "Sample")
            request.propertiesToUpdate = ["string": "batch"]
            request.resultType = .updatedObjectIDsResultType
            let ids = try #require(try stack.context.execute(request).result as? [ManagedObjectID])
            #expect(objects[0].value(forKey: "string") == nil, "contexts do not see batch changes by themselves")
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [UpdatedObjectsKey: ids], into: [stack.context])
            #expect(objects[0].value(forKey: "string") as? String == "batch")
            #expect(objects[1].value(forKey: "string") as? String == "batch")
            #expect(objects[1].value(forKey: "group") as? String == "mine", "unsaved changes are kept")
        }
    }
}
