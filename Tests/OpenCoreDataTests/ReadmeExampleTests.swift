import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// The README's example, as written there but for the store's location and the class and entity names (registrations are global, and tests run in parallel).
@Suite struct ReadmeExampleTests {
    final class Item: ManagedObject {
        @Managed var title: String
        @Managed var parent: Item?
        @Managed var children: Set<Item>
    }

    /// The README's model and stack, with `Item` bound to `entityName`.
    static func readmeContext(entityName: String, folder: TemporaryFolder) throws -> ManagedObjectContext {
        ManagedObjectClasses.register(Item.self, forEntityName: entityName)

        let item = EntityDescription(name: entityName, managedObjectClassName: entityName, properties: [
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
        return context
    }

    @Test func theReadmeExampleRuns() throws {
        let folder = TemporaryFolder()
        let context = try Self.readmeContext(entityName: "ReadmeItem", folder: folder)

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

    /// The README's "Querying" example, run after the first example's objects are saved.
    @Test func theReadmeQueryingExampleRuns() throws {
        let folder = TemporaryFolder()
        let context = try Self.readmeContext(entityName: "ReadmeQueryItem", folder: folder)

        try context.performAndWait {
            let groceries = Item(context: context)
            groceries.title = "Groceries"
            for title in ["Milk", "Bread"] {
                let child = Item(context: context)
                child.title = title
                child.parent = groceries
            }
            try context.save()

            // From here on, as in the README.
            let lists = FetchRequest<Item>()
            lists.predicate = try CDPredicate(format: "ANY children.title BEGINSWITH[cd] %@ AND children.@count >= 2", "MI")
            lists.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true, selector: .localizedStandardCompare)]
            #expect(try context.fetch(lists).map(\.title) == ["Groceries"])

            let leaves = try FetchRequest<Item>(predicate: #Predicate { $0.children.count == 0 }, sortBy: [SortDescriptor(\.title)])
            #expect(try context.fetch(leaves).map(\.title) == ["Bread", "Milk"])

            let perParent = FetchRequest<NSDictionary>(entityName: "ReadmeQueryItem")
            perParent.resultType = .dictionaryResultType
            let count = ExpressionDescription(name: "count")
            count.expression = CDExpression(forFunction: "count:", arguments: [.keyPath("title")])
            count.expressionResultType = .integer64
            perParent.propertiesToFetch = ["parent", count]
            perParent.propertiesToGroupBy = ["parent"]
            let rows = try context.fetchDictionaries(perParent)
            #expect(rows.compactMap { $0["count"] as? Int64 }.sorted() == [1, 2])

            let cleanup = BatchDeleteRequest(fetchRequest: leaves)
            cleanup.resultType = .resultTypeCount
            let deleted = try context.execute(cleanup) as? BatchDeleteResult
            #expect(deleted?.result as? Int == 2)
        }
    }
}
