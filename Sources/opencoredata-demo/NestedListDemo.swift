import Foundation
import OpenCoreData

/// An item of the nested list, with typed properties.
final class Item: ManagedObject {
    @Managed var title: String
    @Managed var order: Int64
    @Managed var parent: Item?
    @Managed var children: Set<Item>

    var sortedChildren: [Item] { children.sorted { $0.order < $1.order } }

    /// Inserts an item as the last child of `parent`.
    static func insert(_ title: String, under parent: Item?, into context: ManagedObjectContext) -> Item {
        let item = Item(context: context)
        item.title = title
        item.order = Int64(parent?.children.count ?? 0)
        item.parent = parent
        return item
    }

    /// Keeps sibling order contiguous when an item goes away.
    override func prepareForDeletion() {
        guard let parent else { return }
        for sibling in parent.children where sibling.order > order { sibling.order -= 1 }
    }
}

enum NestedListDemo {
    static func model() -> ManagedObjectModel {
        ManagedObjectClasses.register(Item.self)
        let item = EntityDescription(name: "Item", managedObjectClassName: "Item", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "order", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item, deleteRule: .nullify)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]
        return ManagedObjectModel(entities: [item])
    }

    static func context(at url: URL) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Adds a sample list on the first run, and one more entry on every run.
    static func addItems(at url: URL) throws -> Int {
        let context = try context(at: url)
        return try context.performAndWait {
            let request = FetchRequest<Item>()
            request.predicate = try CDPredicate(format: "parent == nil")
            let root: Item
            if let existing = try context.fetch(request).first {
                root = existing
            } else {
                root = Item.insert("Groceries", under: nil, into: context)
                let fruit = Item.insert("Fruit", under: root, into: context)
                _ = Item.insert("Apples", under: fruit, into: context)
                _ = Item.insert("Pears", under: fruit, into: context)
                _ = Item.insert("Bread", under: root, into: context)
            }
            let runs = root.children.first { $0.title == "Runs" } ?? Item.insert("Runs", under: root, into: context)
            _ = Item.insert("Run at \(ISO8601DateFormatter().string(from: Date()))", under: runs, into: context)
            let added = context.insertedObjects.count
            try context.save()
            return added
        }
    }

    /// The whole list, read back from disk through a new coordinator.
    static func outline(at url: URL) throws -> String {
        let context = try context(at: url)
        return try context.performAndWait {
            let request = FetchRequest<Item>()
            request.predicate = try CDPredicate(format: "parent == nil")
            request.sortDescriptors = [CDSortDescriptor(key: "order", ascending: true)]
            var lines: [String] = []
            func walk(_ item: Item, depth: Int) {
                lines.append(String(repeating: "  ", count: depth) + "- " + item.title)
                for child in item.sortedChildren { walk(child, depth: depth + 1) }
            }
            for root in try context.fetch(request) { walk(root, depth: 0) }
            return lines.joined(separator: "\n")
        }
    }
}
