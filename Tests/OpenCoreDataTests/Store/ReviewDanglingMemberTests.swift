import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: a to-many without an inverse still holding an object inserted and deleted
/// before the save. Before, the SQLite store trapped (force-unwrapping the member's
/// primary key) and the in-memory store stored the temporary ID as a member.
@Suite struct ReviewDanglingMemberTests {
    private static func model() -> ManagedObjectModel {
        let item = EntityDescription(name: "Item", properties: [AttributeDescription(name: "name", type: .string)])
        let owner = EntityDescription(name: "Owner", properties: [AttributeDescription(name: "name", type: .string)])
        owner.properties.append(RelationshipDescription(name: "items", destination: item, toMany: true))
        return ManagedObjectModel(entities: [item, owner])
    }

    @Test(arguments: StoreKind.allCases, [false, true])
    func aDeletedNewMemberOfAToManyIsNotStored(kind: StoreKind, savedFirst: Bool) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        let ownerID = try stack.context.performAndWait {
            let owner = stack.insert("Owner", ["name": "o"])
            if savedFirst { try stack.context.save() }
            let item = stack.insert("Item", ["name": "i"])
            owner.mutableSetValue(forKey: "items").add(item)
            stack.context.delete(item)
            try stack.context.save()
            return owner.objectID
        }
        let reader = stack.newContext()
        let stored = try reader.performAndWait {
            try reader.existingObject(with: ownerID).mutableSetValue(forKey: "items").count
        }
        #expect(stored == 0)
    }
}
