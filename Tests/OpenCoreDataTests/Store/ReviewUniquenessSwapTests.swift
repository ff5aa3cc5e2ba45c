import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: values of a uniqueness constraint moving between rows in one save. Before,
/// SQLite checked each UPDATE against the old values (a swap failed, a chain passed or
/// failed with the order of a set) while the in-memory store checked the result.
@Suite struct ReviewUniquenessSwapTests {
    @Test(arguments: StoreKind.allCases)
    func swappingConstrainedValuesInOneSave(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        let saved = try stack.context.performAndWait {
            let first = stack.insert("Thing", ["name": "first", "code": "ABC"])
            let second = stack.insert("Thing", ["name": "second", "code": "XYZ"])
            try stack.context.save()
            first.setValue("XYZ", forKey: "code")
            second.setValue("ABC", forKey: "code")
            return (try? stack.context.save()) != nil
        }
        #expect(saved)
    }

    @Test(arguments: StoreKind.allCases)
    func aNewObjectTakesTheValueAnUpdatedOneGivesUp(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        try stack.context.performAndWait {
            let first = stack.insert("Thing", ["name": "first", "code": "ABC"])
            try stack.context.save()
            first.setValue("XYZ", forKey: "code")
            _ = stack.insert("Thing", ["name": "second", "code": "ABC"])
            try stack.context.save()
        }
        let codes = try stack.fetch("Thing", sortedBy: "code").map { $0.value(forKey: "code") as? String }
        #expect(codes == ["ABC", "XYZ"])
    }

    @Test(arguments: StoreKind.allCases)
    func aRealClashIsStillAConstraintViolationAndWritesNothing(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        let error = try stack.context.performAndWait {
            let first = stack.insert("Thing", ["name": "first", "code": "ABC"])
            _ = stack.insert("Thing", ["name": "second", "code": "XYZ"])
            try stack.context.save()
            first.setValue("XYZ", forKey: "code")
            return #expect(throws: CoreDataError.self) { try stack.context.save() }
        }
        #expect(error?.code == .constraintViolation)
        let reader = stack.newContext()
        let codes = try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Thing")
            request.sortDescriptors = [CDSortDescriptor(key: "code")]
            return try reader.fetch(request).map { $0.value(forKey: "code") as? String }
        }
        #expect(codes == ["ABC", "XYZ"])
    }
}

/// Review: the in-memory store's uniqueness check compares values, not their
/// descriptions. Before, two dates in the same second, or two different blobs of the
/// same length ("5 bytes"), clashed in memory but not in SQLite.
@Suite struct ReviewUniquenessValueTests {
    private static func model(_ type: AttributeType) -> ManagedObjectModel {
        let entity = EntityDescription(name: "Stamp", properties: [AttributeDescription(name: "value", type: type)])
        entity.uniquenessConstraints = [["value"]]
        return ManagedObjectModel(entities: [entity])
    }

    @Test(arguments: StoreKind.allCases)
    func distinctDatesInOneSecondDoNotClash(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(.date), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Stamp", ["value": Date(timeIntervalSinceReferenceDate: 10.25)])
            _ = stack.insert("Stamp", ["value": Date(timeIntervalSinceReferenceDate: 10.5)])
            try stack.context.save()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func distinctBlobsOfOneLengthDoNotClash(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(.binaryData), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Stamp", ["value": Data([1, 2, 3])])
            _ = stack.insert("Stamp", ["value": Data([4, 5, 6])])
            try stack.context.save()
        }
    }
}

/// Review: deleting an object and inserting another with its unique value in one save.
/// Before, both stores refused it (SQLite deleted rows last; the in-memory store checked
/// uniqueness before removing deleted rows).
@Suite struct ReviewUniquenessReplaceTests {
    @Test(arguments: StoreKind.allCases)
    func aNewObjectTakesTheValueOfADeletedOne(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        try stack.context.performAndWait {
            let old = stack.insert("Thing", ["name": "old", "code": "ABC"])
            try stack.context.save()
            stack.context.delete(old)
            _ = stack.insert("Thing", ["name": "new", "code": "ABC"])
            try stack.context.save()
        }
        let reader = stack.newContext()
        let names = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Thing")).map { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["new"])
    }

    @Test(arguments: StoreKind.allCases)
    func aDeleteInConflictStillWritesNothing(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        let id = try stack.context.performAndWait {
            let old = stack.insert("Thing", ["name": "old", "code": "ABC"])
            try stack.context.save()
            return old.objectID
        }
        let a = stack.newContext(), b = stack.newContext()
        let held = try a.performAndWait { try a.existingObject(with: id) }
        try b.performAndWait {
            try b.existingObject(with: id).setValue("changed", forKey: "name")
            try b.save()
        }
        let error = a.performAndWait { () -> CoreDataError? in
            a.delete(held)
            let twin = EntityDescription.insertNewObject(forEntityName: "Thing", into: a)
            twin.setValue("new", forKey: "name")
            twin.setValue("XYZ", forKey: "code")
            do { try a.save() } catch let error as CoreDataError { return error } catch { return nil }
            return nil
        }
        #expect(error?.code == .mergeConflict)
        let reader = stack.newContext()
        let names = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Thing")).map { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["changed"])
    }
}
