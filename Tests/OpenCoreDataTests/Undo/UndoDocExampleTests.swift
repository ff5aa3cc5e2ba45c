import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// docs/undo.md's example, run as written there (the same lines, checked by `DocExample`).
@Suite struct UndoDocExampleTests {
    /// The doc's nested-list item (bound to its own entity name: class registrations are
    /// global and tests run in parallel).
    final class Item: ManagedObject {
        @Managed var title: String
        @Managed var order: Int64
        @Managed var parent: Item?
        @Managed var children: Set<Item>

        static func insert(_ title: String, under parent: Item?, into context: ManagedObjectContext) -> Item {
            let item = Item(context: context)
            item.title = title
            item.order = Int64(parent?.children.count ?? 0)
            item.parent = parent
            return item
        }

        override func prepareForDeletion() {
            guard let parent else { return }
            for sibling in parent.children where sibling.order > order { sibling.order -= 1 }
        }
    }

    static func context(kind: StoreKind, folder: TemporaryFolder) throws -> ManagedObjectContext {
        ManagedObjectClasses.register(Item.self, forEntityName: "UndoDocItem")
        let item = EntityDescription(name: "UndoDocItem", managedObjectClassName: "UndoDocItem", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "order", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item, deleteRule: .nullify)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]
        let coordinator = PersistentStoreCoordinator(managedObjectModel: ManagedObjectModel(entities: [item]))
        try coordinator.addPersistentStore(type: kind.type, at: kind == .sqlite ? folder.file("undo.sqlite") : nil)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The stored items as "title(order)<parent", read by a fresh context.
    static func stored(_ context: ManagedObjectContext) throws -> [String] {
        let other = ManagedObjectContext(concurrencyType: .privateQueue)
        other.persistentStoreCoordinator = context.persistentStoreCoordinator
        return try other.performAndWait {
            try other.fetch(FetchRequest<Item>()).map { "\($0.title)(\($0.order))<\($0.parent?.title ?? "-")" }.sorted()
        }
    }

    @Test func theDocMatchesThisTest() {
        #expect(DocExample.mismatch(doc: "undo.md", name: "undo") == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func theDocExampleRuns(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let context = try Self.context(kind: kind, folder: folder)
        try context.performAndWait { () throws -> Void in
            // example: undo
            let undoManager = CDUndoManager()
            context.undoManager = undoManager

            let list = Item.insert("Groceries", under: nil, into: context)
            undoManager.setActionName("Add List")
            context.processPendingChanges()            // the event ends: one undo step

            let milk = Item.insert("Milk", under: list, into: context)
            _ = Item.insert("Whole", under: milk, into: context)
            let bread = Item.insert("Bread", under: list, into: context)
            undoManager.setActionName("Add Items")
            try context.save()                         // a save ends the event too

            context.delete(milk)                       // cascades to "Whole"; Bread's order 1 → 0
            undoManager.setActionName("Delete Item “Milk”")
            try context.save()
            print(undoManager.undoMenuItemTitle)       // Undo Delete Item “Milk”

            context.undo()                             // Milk and Whole are back, Bread's order is 1
            print(context.hasChanges)                  // true: the undone delete is unsaved
            try context.save()                         // the rows are written again
            print(undoManager.redoMenuItemTitle)       // Redo Delete Item “Milk”

            context.redo()                             // deleted again, Bread's order 0 again
            try context.save()
            // end example
            #expect(bread.order == 0 && milk.isDeleted == false && milk.managedObjectContext == nil)
            #expect(try Self.stored(context) == ["Bread(0)<Groceries", "Groceries(0)<-"])
            #expect(undoManager.undoMenuItemTitle == "Undo Delete Item “Milk”")
            context.undo()
            #expect(bread.order == 1 && milk.parent === list && milk.children.map(\.title) == ["Whole"])
            try context.save()
            #expect(try Self.stored(context) == ["Bread(1)<Groceries", "Groceries(0)<-", "Milk(0)<Groceries", "Whole(0)<Milk"])
            context.undo()
            context.undo()
            #expect(undoManager.undoMenuItemTitle == "Undo")
            #expect(undoManager.redoMenuItemTitle == "Redo Add List")
            try context.save()
            #expect(try Self.stored(context) == [])
        }
    }
}
