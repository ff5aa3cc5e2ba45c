import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A fetch over several stores sorts in memory, reading rows through to-one key paths.
/// A failed read used to be swallowed (the row sorted as nil, a wrong order without a
/// word); the fetch now throws it.
@Suite struct MultipleStoresSortErrorTests {
    private func model() -> ManagedObjectModel {
        let extra = AttributeDescription(name: "extra", type: .transformable)
        extra.transformableValueType = [String].self
        let person = EntityDescription(name: "Person", properties: [AttributeDescription(name: "name", type: .string), extra])
        let event = EntityDescription(name: "Event", properties: [AttributeDescription(name: "title", type: .string)])
        let owner = RelationshipDescription(name: "owner", destination: person, deleteRule: .nullify)
        let events = RelationshipDescription(name: "events", destination: event, toMany: true, deleteRule: .nullify)
        owner.setInverse(events)
        event.properties += [owner]
        person.properties += [events]
        let model = ManagedObjectModel(entities: [person, event])
        model.configurations = ["A": ["Person", "Event"], "B": ["Person", "Event"]]
        return model
    }

    @Test func aRowASortCannotReadFailsTheFetch() throws {
        let folder = TemporaryFolder()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        let first = try coordinator.addPersistentStore(type: .sqlite, configuration: "A", at: folder.file("a.sqlite"))
        let second = try coordinator.addPersistentStore(type: .sqlite, configuration: "B", at: folder.file("b.sqlite"))
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (store, name) in [(first, "zed"), (second, "amy")] {
                let person = EntityDescription.insertNewObject(forEntityName: "Person", into: context)
                let event = EntityDescription.insertNewObject(forEntityName: "Event", into: context)
                try context.assign(person, to: store)
                try context.assign(event, to: store)
                person.setValue(name, forKey: "name")
                event.setValue(name, forKey: "title")
                event.setValue(person, forKey: "owner")
            }
            try context.save()
        }
        let request = FetchRequest<ManagedObject>(entityName: "Event")
        request.sortDescriptors = [CDSortDescriptor(key: "owner.name", ascending: true)]
        let reader = ManagedObjectContext(concurrencyType: .privateQueue)
        reader.persistentStoreCoordinator = coordinator
        let sorted = try reader.performAndWait { try reader.fetch(request).map { $0.value(forKey: "title") as? String } }
        #expect(sorted == ["amy", "zed"])

        // The second store's person row gets a transformable value that is not a property
        // list: SQL still joins the row and sorts by its name, but reading the row fails.
        try SQLiteInspector(folder.file("b.sqlite")).execute("UPDATE ZPERSON SET ZEXTRA = X'010203'")
        let failing = ManagedObjectContext(concurrencyType: .privateQueue)
        failing.persistentStoreCoordinator = coordinator
        let error = failing.performAndWait { caughtError { _ = try failing.fetch(request) } }
        #expect(error?.code == .transformerFailed)
    }
}
