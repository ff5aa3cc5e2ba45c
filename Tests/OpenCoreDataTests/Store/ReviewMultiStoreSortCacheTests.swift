import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: a fetch over two stores sorted through a to-one relationship reads the related
/// rows as the store holds them now. Before, it took them from the row cache without the
/// `PRAGMA data_version` check every other cached read makes, so another coordinator's
/// renames were ignored and the order was wrong.
@Suite struct ReviewMultiStoreSortCacheTests {
    private static func model() -> ManagedObjectModel {
        let person = EntityDescription(name: "Person", properties: [AttributeDescription(name: "name", type: .string)])
        let event = EntityDescription(name: "Event", properties: [AttributeDescription(name: "rank", type: .integer64)])
        let owner = RelationshipDescription(name: "owner", destination: person)
        let events = RelationshipDescription(name: "events", destination: event, toMany: true)
        owner.setInverse(events)
        event.properties.append(owner)
        person.properties.append(events)
        let model = ManagedObjectModel(entities: [person, event])
        model.configurations = ["A": ["Person", "Event"], "B": ["Person", "Event"]]
        return model
    }

    private static func coordinator(_ model: ManagedObjectModel, _ folder: TemporaryFolder) throws -> (PersistentStoreCoordinator, [PersistentStore]) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let a = try coordinator.addPersistentStore(type: .sqlite, configuration: "A", at: folder.file("a.sqlite"))
        let b = try coordinator.addPersistentStore(type: .sqlite, configuration: "B", at: folder.file("b.sqlite"))
        return (coordinator, [a, b])
    }

    private static func context(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    private func ranksByOwnerName(_ context: ManagedObjectContext) throws -> [Int64] {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Event")
            request.sortDescriptors = [CDSortDescriptor(key: "owner.name")]
            return try context.fetch(request).compactMap { $0.value(forKey: "rank") as? Int64 }
        }
    }

    @Test func sortingThroughAToOneSeesAnotherCoordinatorsRename() throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        let (first, stores) = try Self.coordinator(model, folder)
        let writer = Self.context(first)
        try writer.performAndWait {
            for (index, name) in ["a", "b", "c", "d"].enumerated() {
                let person = EntityDescription.insertNewObject(forEntityName: "Person", into: writer)
                person.setValue(name, forKey: "name")
                let event = EntityDescription.insertNewObject(forEntityName: "Event", into: writer)
                event.setValue(Int64(index), forKey: "rank")
                event.setValue(person, forKey: "owner")
                try writer.assign(person, to: stores[index % 2])
                try writer.assign(event, to: stores[index % 2])
            }
            try writer.save()
        }
        #expect(try ranksByOwnerName(Self.context(first)) == [0, 1, 2, 3])
        let (second, _) = try Self.coordinator(model, folder)
        let renamer = Self.context(second)
        try renamer.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.predicate = try CDPredicate(format: "name == 'a'")
            try renamer.fetch(request).first?.setValue("z", forKey: "name")
            try renamer.save()
        }
        #expect(try ranksByOwnerName(Self.context(first)) == [1, 2, 3, 0])
    }
}
