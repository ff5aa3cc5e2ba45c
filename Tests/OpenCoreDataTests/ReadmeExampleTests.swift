import Foundation
import Testing
import OpenCoreData

/// The README's example, as written there but for the store's location and the class and entity names (registrations are global, and tests run in parallel).
@Suite struct ReadmeExampleTests {
    final class Item: ManagedObject {
        @Managed("title") var title: String
        @Managed("parent") var parent: Item?
        @Managed("children") var children: Set<Item>
    }

    @Test func theReadmeExampleRuns() throws {
        let folder = TemporaryFolder()
        ManagedObjectClasses.register(Item.self, forEntityName: "ReadmeItem")

        let item = EntityDescription(name: "ReadmeItem", managedObjectClassName: "ReadmeItem", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]

        let coordinator = PersistentStoreCoordinator(managedObjectModel: ManagedObjectModel(entities: [item]))
        try coordinator.addPersistentStore(type: .sqlite, at: folder.file("lists.sqlite"))
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator

        let titles = try context.performAndWait {
            let groceries = Item(context: context)
            groceries.title = "Groceries"
            let milk = Item(context: context)
            milk.title = "Milk"
            milk.parent = groceries
            #expect(groceries.children == [milk])
            try context.save()

            let request = FetchRequest<Item>()
            request.predicate = try CDPredicate(format: "parent == %@", groceries)
            request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
            return try context.fetch(request).map(\.title)
        }
        #expect(titles == ["Milk"])
    }
}
