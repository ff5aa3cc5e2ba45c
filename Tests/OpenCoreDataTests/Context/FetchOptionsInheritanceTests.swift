import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Dictionary fetches, batch-faulting arrays and batch updates over an entity hierarchy
/// (abstract Person; Employee and Contractor in one table), on both stores.
@Suite struct FetchOptionsInheritanceTests {
    /// Ada and Grace (employees) in Research, Bob (contractor) in Sales, Eve (employee)
    /// in no department.
    private func people(_ kind: StoreKind) throws -> (TestStack, research: ManagedObjectID, sales: ManagedObjectID) {
        let stack = try TestStack(model: Models.people(), kind: kind)
        let ids = try stack.context.performAndWait {
            let research = stack.insert("Department", ["name": "Research"])
            let sales = stack.insert("Department", ["name": "Sales"])
            _ = stack.insert("Employee", ["name": "Ada", "salary": Int32(10), "department": research])
            _ = stack.insert("Employee", ["name": "Grace", "salary": Int32(20), "department": research])
            _ = stack.insert("Contractor", ["name": "Bob", "rate": 1.5, "department": sales])
            _ = stack.insert("Employee", ["name": "Eve", "salary": Int32(5)])
            try stack.context.save()
            stack.context.reset()
            return (research.objectID, sales.objectID)
        }
        return (stack, ids.0, ids.1)
    }

    @Test(arguments: StoreKind.allCases)
    func groupingByARelationshipGivesObjectIDs(kind: StoreKind) throws {
        let (stack, research, sales) = try people(kind)
        try stack.context.performAndWait {
            let count = ExpressionDescription(name: "members")
            count.expression = CDExpression(forFunction: "count:", arguments: [.evaluatedObject])
            let request = FetchRequest<NSDictionary>(entityName: "Person")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["department", "department.name", count]
            request.propertiesToGroupBy = ["department", "department.name"]
            request.sortDescriptors = [CDSortDescriptor(key: "department.name")]
            let rows = try stack.context.fetchDictionaries(request)
            #expect(rows.count == 3)
            #expect(rows[0]["department"] == nil && rows[0]["members"] as? Int64 == 1, "Eve: no department sorts first")
            #expect(rows[1]["department"] as? ManagedObjectID == research && rows[1]["members"] as? Int64 == 2)
            #expect(rows[2]["department"] as? ManagedObjectID == sales && rows[2]["department.name"] as? String == "Sales")

            let employees = FetchRequest<NSDictionary>(entityName: "Employee")
            employees.resultType = .dictionaryResultType
            let total = ExpressionDescription(name: "payroll")
            total.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("salary")])
            employees.propertiesToFetch = [total]
            #expect(try stack.context.fetchDictionaries(employees).first?["payroll"] as? Int64 == 35)

            let objectIDs = ExpressionDescription(name: "id")
            objectIDs.expression = .evaluatedObject
            let everyone = FetchRequest<NSDictionary>(entityName: "Person")
            everyone.resultType = .dictionaryResultType
            everyone.propertiesToFetch = ["name", objectIDs]
            everyone.sortDescriptors = [CDSortDescriptor(key: "name")]
            let named = try stack.context.fetchDictionaries(everyone)
            #expect(named.map { ($0["id"] as? ManagedObjectID)?.entity.name } == ["Employee", "Contractor", "Employee", "Employee"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchesOfSubentitiesAndPrefetchedDepartments(kind: StoreKind) throws {
        let (stack, _, _) = try people(kind)
        try stack.context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.sortDescriptors = [CDSortDescriptor(key: "name")]
            request.fetchBatchSize = 3
            request.relationshipKeyPathsForPrefetching = ["department"]
            let start = stack.coordinator.executedStatementCount
            let people = try stack.context.fetchResults(request)
            let walked = people.map { person in
                "\(person.entity.name) \(person.value(forKey: "name") as! String) \((person.value(forKey: "department") as? ManagedObject)?.value(forKey: "name") as? String ?? "-")"
            }
            #expect(walked == ["Employee Ada Research", "Contractor Bob Sales", "Employee Eve -", "Employee Grace Research"])
            // The keys; the first batch's rows and departments; the second batch's rows (its
            // department, Research, is cached already).
            #expect(stack.coordinator.executedStatementCount - start == 1 + 2 + 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func batchUpdatesReachSubentities(kind: StoreKind) throws {
        let (stack, _, _) = try people(kind)
        try stack.context.performAndWait {
            let request = BatchUpdateRequest(entityName: "Person")
            request.predicate = try CDPredicate(format: "department != nil")
            request.propertiesToUpdate = ["name": "Anonymous"]
            request.resultType = .updatedObjectsCountResultType
            #expect(try stack.context.execute(request).result as? Int == 3)

            let raise = BatchUpdateRequest(entityName: "Employee")
            raise.propertiesToUpdate = ["salary": CDExpression(forFunction: "multiply:by:", arguments: [.keyPath("salary"), .constant(.int64(3))])]
            _ = try stack.context.execute(raise)
            stack.context.reset()
            let everyone = FetchRequest<ManagedObject>(entityName: "Person")
            everyone.sortDescriptors = [CDSortDescriptor(key: "name")]
            let names = try stack.context.fetch(everyone).map { "\($0.value(forKey: "name") as! String) \($0.entity.name == "Employee" ? "\($0.value(forKey: "salary") as! Int32)" : "-")" }
            #expect(names == ["Anonymous 30", "Anonymous 60", "Anonymous -", "Eve 15"])
        }
    }
}
