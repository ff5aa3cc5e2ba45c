import Foundation
import Testing
import OpenCoreData

/// A model is shared read-only once a coordinator uses it: every setter of every model
/// class traps from then on (checked in child processes), and works before.
@Suite struct ModelImmutabilityTests {
    /// The nested-list model, frozen by a coordinator with an in-memory store.
    private static func frozenModel() throws -> (model: ManagedObjectModel, coordinator: PersistentStoreCoordinator) {
        let model = Models.nestedList()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory)
        return (model, coordinator)
    }

    @Test func settingTheModelsEntitiesTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            model.entities = []
        }
    }

    @Test func settingTheModelsConfigurationsTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            model.configurations["Cloud"] = ["Item"]
        }
    }

    @Test func settingAnEntitysNameTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].name = "Renamed"
        }
    }

    @Test func appendingToAnEntitysPropertiesTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].properties.append(AttributeDescription(name: "late", type: .string))
        }
    }

    @Test func settingAnAttributesDefaultValueTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].attributesByName["title"]?.defaultValue = "changed"
        }
    }

    @Test func settingAPropertysOptionalityTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            let property: PropertyDescription? = model.entities[0].propertiesByName["parent"]
            property?.isOptional = false
        }
    }

    @Test func settingARelationshipsDeleteRuleTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].relationshipsByName["children"]?.deleteRule = .deny
        }
    }

    @Test func rewiringARelationshipsInverseTraps() async {
        await #expect(processExitsWith: .failure) {
            let (model, _) = try Self.frozenModel()
            let relationships = model.entities[0].relationshipsByName
            if let parent = relationships["parent"], let children = relationships["children"] {
                children.setInverse(parent)
            }
        }
    }

    /// Every kind of setter works before the model is used, and the edited model then
    /// runs: only use freezes it.
    @Test func settersWorkBeforeTheModelIsUsed() throws {
        let model = Models.nestedList()
        model.configurations = ["Default": ["Item"]]
        model.versionIdentifiers = ["v2"]
        let item = try #require(model.entities.first)
        item.name = "Task"
        item.managedObjectClassName = "Task"
        item.userInfo["origin"] = "test"
        item.versionHashModifier = "2"
        item.indexes = [FetchIndexDescription(name: "byTitle", elements: [.init(propertyName: "title")])]
        let title = try #require(item.attributesByName["title"])
        title.defaultValue = "untitled"
        title.maxLength = 40
        title.isIndexed = true
        let children = try #require(item.relationshipsByName["children"])
        children.deleteRule = .nullify
        children.isOrdered = true
        let parent = try #require(item.relationshipsByName["parent"])
        parent.isOptional = true
        parent.setInverse(children)

        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        let saved = try context.performAndWait {
            let task = EntityDescription.insertNewObject(forEntityName: "Task", into: context)
            try context.save()
            return task.value(forKey: "title") as? String
        }
        #expect(saved == "untitled")
        #expect(model.entitiesByName["Task"]?.relationshipsByName["children"]?.isOrdered == true)
    }
}
