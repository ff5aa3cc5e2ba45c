import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

class RCPerson: ManagedObject {}
final class RCEmployee: RCPerson {}
final class RCContractor: RCPerson {}
final class RCDepartment: ManagedObject {}
final class RCLate: ManagedObject {}

/// The result class of a fetch: checked once per fetch against the classes the fetched
/// entities are bound to, and each entity's class (and each class's entity) resolved
/// once per model layout.
@Suite struct ResultClassTests {
    /// `Models.people()` with every entity bound to an `RC…` class.
    static func model() -> ManagedObjectModel {
        for type in [RCPerson.self, RCEmployee.self, RCContractor.self, RCDepartment.self] as [ManagedObject.Type] {
            ManagedObjectClasses.register(type)
        }
        let model = Models.people()
        for (entity, type) in [("Person", "RCPerson"), ("Employee", "RCEmployee"), ("Contractor", "RCContractor"), ("Department", "RCDepartment")] {
            model.entitiesByName[entity]?.managedObjectClassName = type
        }
        return model
    }

    @Test(arguments: StoreKind.allCases)
    func subEntitiesComeBackAsTheirSubclasses(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Employee", ["name": "Ada"])
            _ = stack.insert("Contractor", ["name": "Bob"])
            try stack.context.save()
            stack.context.reset()
            let request = FetchRequest<RCPerson>()
            request.sortDescriptors = [CDSortDescriptor(key: "name")]
            let people = try stack.context.fetch(request)
            #expect(people.count == 2)
            #expect(people[0] is RCEmployee && people[1] is RCContractor)
            let results = try stack.context.fetchResults(request)
            #expect(results[0] is RCEmployee && results[1] is RCContractor)
            #expect(try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).count == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEntityBoundToAnotherClassIsATypedErrorBeforeAnyRead(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Employee", ["name": "Ada"])
            try stack.context.save()
            let start = stack.coordinator.executedStatementCount
            for attempt in [
                { _ = try stack.context.fetch(FetchRequest<RCEmployee>(entityName: "Person")) },
                { _ = try stack.context.fetch(FetchRequest<RCDepartment>(entityName: "Employee")) },
                { _ = try stack.context.fetchResults(FetchRequest<RCContractor>(entityName: "Person")) },
            ] as [() throws -> Void] {
                let error = try #require(throws: CoreDataError.self, performing: attempt)
                #expect(error.code == .invalidFetchRequest)
            }
            #expect(stack.coordinator.executedStatementCount == start, "refused before any read")
            #expect(try stack.context.fetch(FetchRequest<RCEmployee>(entityName: "Employee")).count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anObjectCreatedWithAnotherClassIsATypedError(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        try stack.context.performAndWait {
            let employee = try #require(stack.model.entitiesByName["Employee"])
            let plain = ManagedObject(entity: employee, insertInto: stack.context)
            plain.setValue("Plain", forKey: "name")
            let error = try #require(throws: CoreDataError.self) { try stack.context.fetch(FetchRequest<RCPerson>(entityName: "Person")) }
            #expect(error.code == .invalidFetchRequest)
            #expect(try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Person")) == [plain])
        }
    }

    @Test func initWithContextFindsTheEntityOfEachModel() throws {
        let first = try TestStack(model: Self.model(), kind: .inMemory)
        let second = try TestStack(model: Self.model(), kind: .inMemory)
        for _ in 0..<2 {
            for stack in [first, second] {
                stack.context.performAndWait {
                    let department = RCDepartment(context: stack.context)
                    #expect(department.entity === stack.model.entitiesByName["Department"])
                }
            }
        }
    }

    @Test func aClassRegisteredAfterTheModelIsInUseIsBound() throws {
        let late = EntityDescription(name: "RCLate", properties: [AttributeDescription(name: "name", type: .string)])
        let stack = try TestStack(model: ManagedObjectModel(entities: [late]), kind: .inMemory)
        try stack.context.performAndWait {
            _ = stack.insert("RCLate", ["name": "before"])
            try stack.context.save()
            stack.context.reset()
            let before = try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "RCLate"))
            #expect(before.count == 1 && type(of: before[0]) == ManagedObject.self)
            stack.context.reset()
            ManagedObjectClasses.register(RCLate.self)
            let after = try stack.context.fetch(FetchRequest<RCLate>())
            #expect(after.count == 1)
            let inserted = RCLate(context: stack.context)
            #expect(inserted.entity === late)
        }
    }
}
