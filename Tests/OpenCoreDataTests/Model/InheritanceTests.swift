import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct InheritanceTests {
    @Test(arguments: StoreKind.allCases)
    func subEntitiesShareTheRootTableAndParentFetchesIncludeThem(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.people(), kind: kind)
        try stack.context.performAndWait {
            let department = stack.insert("Department", ["name": "R&D"])
            _ = stack.insert("Employee", ["name": "Ada", "salary": 100, "department": department])
            _ = stack.insert("Contractor", ["name": "Bob", "rate": 80.5, "department": department])
            try stack.context.save()
            let people = try stack.fetch("Person", sortedBy: "name")
            #expect(people.map(\.entity.name) == ["Employee", "Contractor"])
            #expect(people.first?.value(forKey: "salary") as? Int32 == 100)
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.includesSubentities = false
            #expect(try stack.context.fetch(request).isEmpty)
            #expect(try stack.fetch("Employee").count == 1)
            #expect((department.value(forKey: "members") as? Set<ManagedObject>)?.count == 2)
        }
        guard kind == .sqlite else { return }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let department = try #require(try reopened.fetch("Department").first)
            let members = (department.value(forKey: "members") as? Set<ManagedObject>) ?? []
            #expect(Set(members.map(\.entity.name)) == ["Employee", "Contractor"])
            let contractor = try #require(members.first { $0.entity.name == "Contractor" })
            #expect(contractor.value(forKey: "rate") as? Double == 80.5)
            #expect((contractor.value(forKey: "department") as? ManagedObject) === department)
        }
        let tables = try SQLiteInspector(stack.storeURL!).strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(tables == ["ZDEPARTMENT", "ZPERSON", "Z_METADATA", "Z_PRIMARYKEY"])
        let entities = try SQLiteInspector(stack.storeURL!).strings("SELECT Z_ENT || ':' || ZNAME FROM ZPERSON ORDER BY Z_PK")
        #expect(entities == ["3:Ada", "1:Bob"])
    }
}
