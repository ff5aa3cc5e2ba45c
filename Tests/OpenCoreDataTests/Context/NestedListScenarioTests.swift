import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// objc.io's nested list, end to end: a root, children ordered by insertion,
/// `prepareForDeletion` renumbering later siblings, a cascade delete, saved and reopened.
final class ListItem: ManagedObject {
    var title: String { value(forKey: "title") as! String }
    var order: Int64 {
        get { value(forKey: "order") as! Int64 }
        set { setValue(newValue, forKey: "order") }
    }
    var parent: ListItem? { value(forKey: "parent") as? ListItem }
    var children: [ListItem] {
        ((value(forKey: "children") as? Set<ManagedObject>) ?? []).compactMap { $0 as? ListItem }.sorted { $0.order < $1.order }
    }

    static func insert(_ title: String, parent: ListItem?, into context: ManagedObjectContext) -> ListItem {
        let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context) as! ListItem
        item.setValue(title, forKey: "title")
        if let parent {
            item.order = Int64(parent.children.count)
            item.setValue(parent, forKey: "parent")
        }
        return item
    }

    override func prepareForDeletion() {
        guard let parent else { return }
        for sibling in parent.children where sibling.order > order { sibling.order -= 1 }
    }
}

@Suite struct NestedListScenarioTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectClasses.register(ListItem.self)
        let model = Models.nestedList()
        model.entities[0].managedObjectClassName = "ListItem"
        return model
    }

    /// The tree below `item` as "title(order)[children]" text.
    static func outline(_ item: ListItem) -> String {
        let children = item.children
        let inner = children.isEmpty ? "" : "[" + children.map(outline).joined(separator: " ") + "]"
        return "\(item.title)(\(item.order))\(inner)"
    }

    @Test(arguments: StoreKind.allCases)
    func buildRenumberCascadeSaveReopen(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            let root = ListItem.insert("root", parent: nil, into: context)
            let a = ListItem.insert("a", parent: root, into: context)
            let b = ListItem.insert("b", parent: root, into: context)
            _ = ListItem.insert("c", parent: root, into: context)
            _ = ListItem.insert("b1", parent: b, into: context)
            let b2 = ListItem.insert("b2", parent: b, into: context)
            _ = ListItem.insert("b2x", parent: b2, into: context)
            _ = ListItem.insert("a1", parent: a, into: context)
            try context.save()
            #expect(Self.outline(root) == "root(0)[a(0)[a1(0)] b(1)[b1(0) b2(1)[b2x(0)]] c(2)]")
            #expect(context.registeredObjects.allSatisfy { !$0.objectID.isTemporaryID })

            context.delete(b)
            context.processPendingChanges()
            #expect(Self.outline(root) == "root(0)[a(0)[a1(0)] c(1)]")
            #expect(context.deletedObjects.count == 4)
            #expect(InvariantChecker.check(context) == [])
            try context.save()
            #expect(InvariantChecker.check(context) == [])
        }
        guard kind == .sqlite else {
            try context.performAndWait {
                let all = try stack.fetch("Item", sortedBy: "title")
                #expect(all.map { $0.value(forKey: "title") as! String } == ["a", "a1", "c", "root"])
            }
            return
        }
        let reopened = try stack.reopened(model: Self.model())
        try reopened.context.performAndWait {
            let roots = try reopened.fetch("Item", "parent == nil")
            #expect(roots.count == 1)
            let root = try #require(roots.first as? ListItem)
            #expect(Self.outline(root) == "root(0)[a(0)[a1(0)] c(1)]")
            #expect(try reopened.context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 4)
            #expect(InvariantChecker.check(reopened.context) == [])
        }
    }
}
