import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// The shipped model: its entity, constraint and class binding.
@Suite struct NestedListModelTests {
    @Test func theShippedModelHasItemWithItsRootConstraint() throws {
        let item = try #require(NestedList.model().entitiesByName["Item"])
        #expect(item.managedObjectClassName == "ListsKit.Item")
        #expect(item.uniquenessConstraints == [["isRoot"]])
        #expect(Set(item.propertiesByName.keys) == ["title", "order", "parent", "children", "isRoot"])
        #expect((item.relationshipsByName["children"])?.deleteRule == .cascade)
    }

    @Test(arguments: StoreKind.allCases)
    func anotherModelsItemEntityKeepsItsOwnClass(kind: StoreKind) throws {
        _ = try NestedList.model()
        let stack = try TestStack(model: ManagedObjectModel(entities: [
            EntityDescription(name: "Item", properties: [AttributeDescription(name: "title", type: .string, isOptional: true)]),
        ]), kind: kind)
        stack.context.performAndWait { #expect(!(stack.insert("Item") is ListsKit.Item)) }
        let lists = try TestStack(model: NestedList.model(), kind: kind)
        lists.context.performAndWait { #expect(lists.insert("Item") is ListsKit.Item) }
    }
}
