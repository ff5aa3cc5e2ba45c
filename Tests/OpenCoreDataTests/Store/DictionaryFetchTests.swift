import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `resultType = .dictionaryResultType`: properties, key paths, aggregates, grouping,
/// HAVING, DISTINCT, sorting and windows, the same on both stores.
@Suite struct DictionaryFetchTests {
    private func request(_ properties: [Any]?, groupBy: [Any]? = nil, sortedBy: [CDSortDescriptor] = []) -> FetchRequest<NSDictionary> {
        let request = FetchRequest<NSDictionary>(entityName: "Sample")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = properties
        request.propertiesToGroupBy = groupBy
        request.sortDescriptors = sortedBy
        return request
    }

    private func expression(_ name: String, _ function: String, _ keyPath: String, type: AttributeType = .undefined) -> ExpressionDescription {
        let description = ExpressionDescription(name: name)
        description.expression = CDExpression(forFunction: function, arguments: [.keyPath(keyPath)])
        description.expressionResultType = type
        return description
    }

    @Test(arguments: StoreKind.allCases)
    func propertiesKeyPathsAndRelationshipsAsObjectIDs(kind: StoreKind) throws {
        let (stack, root, mid) = try TestStack.sampleChain(kind)
        try stack.context.performAndWait {
            let request = request(["key", "parent", "parent.key", "parent.string"], sortedBy: [CDSortDescriptor(key: "key")])
            let rows = try stack.context.fetchDictionaries(request)
            #expect(rows.count == 3)
            #expect(rows[0]["key"] as? String == "leaf")
            #expect(rows[0]["parent"] as? ManagedObjectID == mid)
            #expect(rows[0]["parent.key"] as? String == "mid")
            #expect(rows[0]["parent.string"] == nil)
            #expect(rows[1]["key"] as? String == "mid")
            #expect(rows[1]["parent"] as? ManagedObjectID == root)
            #expect(rows[1]["parent.string"] as? String == "top")
            #expect(rows[2]["key"] as? String == "root")
            #expect(rows[2].keys.sorted() == ["key"], "nil values are left out")
            #expect(stack.context.registeredObjects.isEmpty)

            let dictionaries = try stack.context.fetch(request)
            #expect(dictionaries.count == 3)
            #expect(dictionaries[0]["parent.key"] as? String == "mid")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aggregatesPerGroupWithHavingSortingAndWindow(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            // even: int64 9 7 5 3 1; odd: 8 6 4 2 0.
            let properties: [Any] = ["group", expression("total", "sum:", "int64"), expression("n", "count:", "int64"),
                                     expression("least", "min:", "int64"), expression("most", "max:", "int64"),
                                     expression("mean", "average:", "int64")]
            let grouped = request(properties, groupBy: ["group"], sortedBy: [CDSortDescriptor(key: "group")])
            let rows = try stack.context.fetchDictionaries(grouped)
            #expect(rows.count == 2)
            #expect(rows[0]["group"] as? String == "even")
            #expect(rows[0]["total"] as? Int64 == 25)
            #expect(rows[0]["n"] as? Int64 == 5)
            #expect(rows[0]["least"] as? Int64 == 1)
            #expect(rows[0]["most"] as? Int64 == 9)
            #expect(rows[0]["mean"] as? Double == 5)
            #expect(rows[1]["group"] as? String == "odd")
            #expect(rows[1]["total"] as? Int64 == 20)
            #expect(rows[1]["mean"] as? Double == 4)

            grouped.havingPredicate = try CDPredicate(format: "total < 22")
            #expect(try stack.context.fetchDictionaries(grouped).map { $0["group"] as? String } == ["odd"])

            grouped.havingPredicate = nil
            grouped.sortDescriptors = [CDSortDescriptor(key: "total", ascending: false)]
            grouped.fetchLimit = 1
            #expect(try stack.context.fetchDictionaries(grouped).map { $0["group"] as? String } == ["even"])
            grouped.fetchOffset = 1
            #expect(try stack.context.fetchDictionaries(grouped).map { $0["group"] as? String } == ["odd"])

            let whole = request([expression("total", "sum:", "int64", type: .double), expression("most", "max:", "key")])
            whole.predicate = try CDPredicate(format: "int64 >= 5")
            let totals = try stack.context.fetchDictionaries(whole)
            #expect(totals.count == 1)
            #expect(totals[0]["total"] as? Double == 35)
            #expect(totals[0]["most"] as? String == "k4")

            whole.predicate = try CDPredicate(format: "int64 > 100")
            let empty = try stack.context.fetchDictionaries(whole)
            #expect(empty.count == 1 && empty[0].isEmpty, "aggregates over no rows: one group, nil values")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func distinctResultsAndTheStoreStateOnly(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let distinct = request(["group"], sortedBy: [CDSortDescriptor(key: "group", ascending: false)])
            distinct.returnsDistinctResults = true
            #expect(try stack.context.fetchDictionaries(distinct).map { $0["group"] as? String } == ["odd", "even"])
            distinct.returnsDistinctResults = false
            #expect(try stack.context.fetchDictionaries(distinct).count == 10)

            _ = stack.insert("Sample", ["key": "new", "group": "pending"])
            distinct.returnsDistinctResults = true
            #expect(try stack.context.fetchDictionaries(distinct).count == 2, "unsaved changes are not seen")

            let everything = request(nil, sortedBy: [CDSortDescriptor(key: "key")])
            everything.predicate = try CDPredicate(format: "key == 'k3'")
            let row = try #require(try stack.context.fetchDictionaries(everything).first)
            #expect(row["key"] as? String == "k3")
            #expect(row["int64"] as? Int64 == 6)
            #expect(row["group"] as? String == "odd")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func invalidCombinationsThrowInvalidFetchRequest(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let total = expression("total", "sum:", "int64")
            let objects = FetchRequest<ManagedObject>(entityName: "Sample")
            objects.propertiesToGroupBy = ["group"]
            let failing: [FetchRequest<NSDictionary>] = [
                request(["key", total], groupBy: ["group"]),
                request(["key", total]),
                request(["children"]),
                request(["nope"]),
                request(["parent.children"]),
                request([expression("x", "median:", "int64")]),
                request([42]),
                request([]),
                {
                    let having = request(["group"])
                    having.havingPredicate = CDPredicate(value: true)
                    return having
                }(),
            ]
            for failure in failing {
                #expect(throws: CoreDataError.self) { try stack.context.fetchDictionaries(failure) }
                do {
                    _ = try stack.context.fetchDictionaries(failure)
                } catch let error as CoreDataError {
                    #expect(error.code == .invalidFetchRequest, "\(error)")
                }
            }
            #expect(throws: CoreDataError.self) { try stack.context.fetch(objects) }
            #expect(throws: CoreDataError.self) { try stack.context.fetchDictionaries(FetchRequest<NSDictionary>(entityName: "Sample")) }
        }
    }
}
