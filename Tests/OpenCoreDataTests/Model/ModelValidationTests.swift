import Foundation
import Testing
@testable import OpenCoreData

@Suite struct ModelValidationTests {
    private func listModel() -> ManagedObjectModel {
        let item = EntityDescription(name: "Item", properties: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "order", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]
        return ManagedObjectModel(entities: [item])
    }

    @Test func aValidModelFreezesAndNumbersItsEntities() throws {
        let model = listModel()
        try model.freeze()
        let item = try #require(model.entitiesByName["Item"])
        #expect(item.slots.number == 1)
        #expect(item.slots.slotByName["children"] == 3)
        #expect(item.relationshipsByName["parent"]?.inverseRelationship === item.relationshipsByName["children"])
    }

    @Test func anInverseNamingAMissingRelationshipIsAnError() throws {
        let model = listModel()
        let item = model.entities[0]
        let extra = RelationshipDescription(name: "owner", destination: item)
        extra.inverseName = "nothing"
        item.properties.append(extra)
        let error = try #require(throws: CoreDataError.self) { try model.freeze() }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("Item.owner"))
        #expect(error.message.contains("nothing"))
    }

    @Test func anInverseThatDoesNotPointBackIsAnError() throws {
        let model = listModel()
        let item = model.entities[0]
        let stray = RelationshipDescription(name: "stray", destination: item)
        stray.inverseRelationship = item.relationshipsByName["parent"]
        item.properties.append(stray)
        let error = try #require(throws: CoreDataError.self) { try model.freeze() }
        #expect(error.message.contains("does not point back"))
    }

    @Test func aMissingDestinationIsAnError() throws {
        let item = EntityDescription(name: "Item")
        let owner = RelationshipDescription(name: "owner")
        owner.destinationEntityName = "Person"
        item.properties = [owner]
        let error = try #require(throws: CoreDataError.self) { try ManagedObjectModel(entities: [item]).freeze() }
        #expect(error.message.contains("'Person'"))
        #expect(error.key == "owner")
    }

    @Test func aRelationshipWithoutInverseIsAllowed() throws {
        let tag = EntityDescription(name: "Tag", properties: [AttributeDescription(name: "name", type: .string)])
        let note = EntityDescription(name: "Note", properties: [RelationshipDescription(name: "tags", destination: tag, toMany: true)])
        try ManagedObjectModel(entities: [note, tag]).freeze()
    }
}
