import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Batch deletes of entities no relationship touches: the SQLite store deletes the
/// matching rows with one statement, without reading them first; both stores must agree.
@Suite struct BatchDeleteWithoutReadingTests {
    /// `Reading` (value) and its sub-entity `Special`: no relationships anywhere.
    private static func model() -> ManagedObjectModel {
        let reading = EntityDescription(name: "Reading", properties: [AttributeDescription(name: "value", type: .integer64)])
        let special = EntityDescription(name: "Special", properties: [])
        reading.subentities = [special]
        return ManagedObjectModel(entities: [reading, special])
    }

    private func delete(_ stack: TestStack, _ entityName: String, _ format: String? = nil, configure: (FetchRequest<ManagedObject>) -> Void = { _ in }) throws -> Int? {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        request.predicate = try format.map { try CDPredicate(format: $0) }
        configure(request)
        let delete = BatchDeleteRequest(fetchRequest: request)
        delete.resultType = .resultTypeCount
        return try stack.context.execute(delete).result as? Int
    }

    private func values(_ stack: TestStack, _ entityName: String) throws -> [Int64] {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        request.sortDescriptors = [CDSortDescriptor(key: "value")]
        return try stack.context.fetch(request).compactMap { $0.value(forKey: "value") as? Int64 }
    }

    @Test(arguments: StoreKind.allCases)
    func predicateSubentitiesAndWindowAreHonoured(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        try stack.context.performAndWait {
            for value in 0..<10 { _ = stack.insert("Reading", ["value": Int64(value)]) }
            for value in 100..<103 { _ = stack.insert("Special", ["value": Int64(value)]) }
            try stack.context.save()
            stack.context.reset()

            #expect(try delete(stack, "Reading", "value >= 5") { $0.includesSubentities = false } == 5)
            #expect(try values(stack, "Reading") == [0, 1, 2, 3, 4, 100, 101, 102])
            #expect(try delete(stack, "Special") == 3)
            #expect(try values(stack, "Reading") == [0, 1, 2, 3, 4])
            #expect(try delete(stack, "Reading") { request in
                request.sortDescriptors = [CDSortDescriptor(key: "value", ascending: false)]
                request.fetchLimit = 2
            } == 2)
            #expect(try values(stack, "Reading") == [0, 1, 2])
            #expect(try delete(stack, "Reading") == 3)
            #expect(try values(stack, "Reading") == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func objectIDResultsStillListTheDeletedObjects(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Reading", ["value": Int64(1)])
            let gone = stack.insert("Reading", ["value": Int64(2)])
            try stack.context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Reading")
            request.predicate = try CDPredicate(format: "value == 2")
            let delete = BatchDeleteRequest(fetchRequest: request)
            delete.resultType = .resultTypeObjectIDs
            #expect(try stack.context.execute(delete).result as? [ManagedObjectID] == [gone.objectID])
            stack.context.reset()
            #expect(try values(stack, "Reading") == [1])
        }
    }
}
