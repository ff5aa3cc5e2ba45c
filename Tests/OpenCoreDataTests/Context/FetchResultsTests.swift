import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `fetchResults(_:)`: keys first, then objects only when read — alone (`fetchBatchSize` 0)
/// or a batch at a time.
@Suite struct FetchResultsTests {
    private func samples(_ kind: StoreKind, count: Int) throws -> TestStack {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            for i in 0..<count { _ = stack.insert("Sample", ["key": String(format: "k%03d", i), "int64": Int64(i % 7)]) }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    @Test(arguments: StoreKind.allCases)
    func oneQueryForTheKeysThenOnePerBatch(kind: StoreKind) throws {
        let stack = try samples(kind, count: 95)
        try stack.context.performAndWait {
            let request = try stack.request(sortedBy: ["int64", "-key"])
            let expected = try stack.keys(request)
            stack.context.reset()
            request.fetchBatchSize = 10
            let start = stack.coordinator.executedStatementCount
            let batched = try stack.context.fetchResults(request)
            #expect(stack.coordinator.executedStatementCount - start == 1)
            #expect(batched.count == 95)
            #expect(stack.context.registeredObjects.isEmpty, "no object exists before it is read")
            let keys = batched.map { $0.value(forKey: "key") as! String }
            #expect(keys == expected)
            #expect(stack.coordinator.executedStatementCount - start == 1 + 10)
            #expect(stack.context.registeredObjects.count <= 10 * FetchResults<ManagedObject>.retainedBatchCount,
                    "only the last batches stay alive")
            _ = batched[94].value(forKey: "key")
            #expect(stack.coordinator.executedStatementCount - start == 1 + 10, "a retained batch needs no query")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func windowsAndAZeroBatchSize(kind: StoreKind) throws {
        let stack = try samples(kind, count: 30)
        try stack.context.performAndWait {
            let request = try stack.request("int64 >= 3", sortedBy: ["key"])
            request.fetchOffset = 2
            request.fetchLimit = 9
            let expected = try stack.keys(request)
            #expect(expected.count == 9)
            request.fetchBatchSize = 4
            #expect(try stack.context.fetchResults(request).map { $0.value(forKey: "key") as! String } == expected)
            request.fetchBatchSize = 0
            #expect(try stack.context.fetchResults(request).map { $0.value(forKey: "key") as! String } == expected)
            #expect(try stack.keys(request) == expected, "fetch(_:) with a batch size still returns every object")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pendingChangesAreHonoured(kind: StoreKind) throws {
        let stack = try samples(kind, count: 20)
        try stack.context.performAndWait {
            let request = try stack.request("int64 >= 4", sortedBy: ["key"])
            let stored = try stack.context.fetch(request)
            stack.context.delete(stored[0])
            stored[1].setValue(Int64(0), forKey: "int64")
            _ = stack.insert("Sample", ["key": "k010a", "int64": Int64(6)])
            let expected = try stack.keys(request)
            request.fetchBatchSize = 3
            #expect(try stack.context.fetchResults(request).map { $0.value(forKey: "key") as! String } == expected)
            request.includesPendingChanges = false
            let storeOnly = try stack.context.fetchResults(request)
            #expect(storeOnly.count == stored.count)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletedRowsReadAsDeletedAndWrongTypesThrow(kind: StoreKind) throws {
        let stack = try samples(kind, count: 6)
        try stack.context.performAndWait {
            let request = try stack.request(sortedBy: ["key"])
            request.fetchBatchSize = 2
            let batched = try stack.context.fetchResults(request)
            let other = stack.newContext()
            try other.performAndWait {
                for object in try other.fetch(stack.request("key == 'k005'")) { other.delete(object) }
                try other.save()
            }
            #expect(batched[5].value(forKey: "key") == nil)
            #expect(batched[5].isDeleted, "the row is gone: the fault reads as deleted")
            #expect(batched[0].value(forKey: "key") as? String == "k000")

            let ids = FetchRequest<ManagedObject>(entityName: "Sample")
            ids.resultType = .managedObjectIDResultType
            #expect(throws: CoreDataError.self) { try stack.context.fetchResults(ids) }
        }
    }

    // MARK: - Keys only, objects when read

    @Test(arguments: StoreKind.allCases)
    func onlyReadElementsBecomeObjects(kind: StoreKind) throws {
        let stack = try samples(kind, count: 50)
        try stack.context.performAndWait {
            let request = try stack.request(sortedBy: ["-key"])
            let start = stack.coordinator.executedStatementCount
            let results = try stack.context.fetchResults(request)
            #expect(stack.coordinator.executedStatementCount - start == 1, "one query, for the keys")
            #expect(results.count == 50 && results.indices == 0..<50 && results.batchSize == 0)
            #expect(stack.context.registeredObjects.isEmpty)
            let touched = results[17]
            #expect(stack.context.registeredObjects.count == 1, "only the element read is materialised")
            #expect(touched.isFault)
            #expect(stack.coordinator.executedStatementCount - start == 1, "a fault costs no query")
            #expect(touched.value(forKey: "key") as? String == "k032")
            #expect(stack.coordinator.executedStatementCount - start == 2, "its values: one query")
            #expect(results[17] === touched, "the same object while it is alive")
            #expect(results.last?.value(forKey: "key") as? String == "k000")
            #expect(results.prefix(3).map { $0.value(forKey: "key") as? String } == ["k049", "k048", "k047"])
            #expect(stack.context.registeredObjects.count <= 5)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unfaultedResultsLoadEachReadElement(kind: StoreKind) throws {
        let stack = try samples(kind, count: 10)
        try stack.context.performAndWait {
            let request = try stack.request("int64 >= 2", sortedBy: ["key"])
            request.returnsObjectsAsFaults = false
            let expected = try stack.keys(request)
            stack.context.reset()
            let results = try stack.context.fetchResults(request)
            let start = stack.coordinator.executedStatementCount
            let object = results[1]
            #expect(!object.isFault)
            #expect(stack.coordinator.executedStatementCount - start == 1)
            #expect(object.value(forKey: "key") as? String == expected[1])
            #expect(stack.coordinator.executedStatementCount - start == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pendingInsertsAndDeletesAreIncluded(kind: StoreKind) throws {
        let stack = try samples(kind, count: 12)
        try stack.context.performAndWait {
            let request = try stack.request("int64 >= 2", sortedBy: ["-key"])
            request.fetchOffset = 1
            request.fetchLimit = 6
            let stored = try stack.context.fetch(try stack.request("int64 >= 2", sortedBy: ["key"]))
            stack.context.delete(stored[0])
            stored[1].setValue(Int64(0), forKey: "int64")
            let inserted = stack.insert("Sample", ["key": "k009a", "int64": Int64(5)])
            let expected = try stack.keys(request)
            let results = try stack.context.fetchResults(request)
            #expect(results.map { $0.value(forKey: "key") as? String ?? "nil" } == expected)
            let position = try #require(expected.firstIndex(of: "k009a"))
            #expect(results[position] === inserted)
            try stack.context.save()
            #expect(results[position] === inserted, "a saved insert is still itself")
            stack.context.reset()
            #expect(results[position] !== inserted, "after a reset: the context's object for the saved row")
            #expect(results[position].value(forKey: "key") as? String == "k009a")
            #expect(results[position].managedObjectContext === stack.context)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func elementsAfterAResetAreTheContextsNewObjects(kind: StoreKind) throws {
        let stack = try samples(kind, count: 8)
        try stack.context.performAndWait {
            let discarded = stack.insert("Sample", ["key": "k100", "int64": Int64(1)])
            let results = try stack.context.fetchResults(try stack.request(sortedBy: ["key"]))
            let before = results[3]
            stack.context.reset()
            #expect(stack.context.registeredObjects.isEmpty)
            let after = results[3]
            #expect(after !== before && after.managedObjectContext === stack.context)
            #expect(after.value(forKey: "key") as? String == "k003")
            #expect(results[8] === discarded && discarded.managedObjectContext == nil,
                    "an unsaved insert discarded by the reset stays the discarded object")
        }
    }
}
