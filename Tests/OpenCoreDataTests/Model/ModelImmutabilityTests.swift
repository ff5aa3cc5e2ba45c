import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

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

    /// The trap's message: what the child wrote to standard error.
    private static func message(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    @Test func settingTheModelsEntitiesTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            model.entities = []
        }
        #expect(Self.message(result).contains("ManagedObjectModel.entities: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func settingTheModelsConfigurationsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            model.configurations["Cloud"] = ["Item"]
        }
        #expect(Self.message(result).contains("ManagedObjectModel.configurations: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func settingAnEntitysNameTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].name = "Renamed"
        }
        #expect(Self.message(result).contains("EntityDescription 'Item'.name: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func appendingToAnEntitysPropertiesTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].properties.append(AttributeDescription(name: "late", type: .string))
        }
        #expect(Self.message(result).contains("EntityDescription 'Item'.properties: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func settingAnAttributesDefaultValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].attributesByName["title"]?.defaultValue = "changed"
        }
        #expect(Self.message(result).contains("AttributeDescription 'Item.title'.defaultValue: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func settingAPropertysOptionalityTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            let property: PropertyDescription? = model.entities[0].propertiesByName["parent"]
            property?.isOptional = false
        }
        #expect(Self.message(result).contains("RelationshipDescription 'Item.parent'.isOptional: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func settingARelationshipsDeleteRuleTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            model.entities[0].relationshipsByName["children"]?.deleteRule = .deny
        }
        #expect(Self.message(result).contains("RelationshipDescription 'Item.children'.deleteRule: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    @Test func rewiringARelationshipsInverseTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let (model, _) = try Self.frozenModel()
            let relationships = model.entities[0].relationshipsByName
            if let parent = relationships["parent"], let children = relationships["children"] {
                children.setInverse(parent)
            }
        }
        #expect(Self.message(result).contains("RelationshipDescription 'Item.children'.inverseRelationship: a model cannot be changed once a PersistentStoreCoordinator uses it"))
    }

    /// Every kind of setter works before the model is used, and the edited model then
    /// runs: only use freezes it.
    @Test func settersWorkBeforeTheModelIsUsed() throws {
        let model = Models.nestedList()
        model.configurations = ["Default": ["Item"]]
        model.versionIdentifiers = ["v2"]
        let item = try #require(model.entities.first)
        item.name = "Task"
        item.managedObjectClassName = nil
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
