import Foundation
import Testing
@testable import OpenCoreData

/// `ManagedObject.value(forKeyPath:)`, which follows a `ResolvedKeyPath`.
@Suite struct ValueForKeyPathTests {
    /// `children.@count` used to trap (it read a property named "@count" of each child).
    @Test func countsChildren() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "root"])
            _ = stack.insert("Item", ["title": "a", "order": Int64(2), "parent": root])
            _ = stack.insert("Item", ["title": "b", "order": Int64(5), "parent": root])
            #expect(root.value(forKeyPath: "children.@count") as? Int == 2)
            #expect(root.value(forKeyPath: "children.@sum.order") as? Int64 == 7)
            #expect(root.value(forKeyPath: "children.@max.order") as? Int64 == 5)
            #expect(root.value(forKeyPath: "children.@avg.order") as? Double == 3.5)
            let leaf = stack.insert("Item", ["title": "leaf"])
            #expect(leaf.value(forKeyPath: "children.@count") as? Int == 0)
        }
    }

    @Test func followsToOneChainsAndCollectsToMany() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        stack.context.performAndWait {
            let tree = stack.insertItemTree()
            #expect(tree.grandchild.value(forKeyPath: "parent.parent.title") as? String == "root")
            #expect(tree.child.value(forKeyPath: "parent.title") as? String == "root")
            #expect(tree.root.value(forKeyPath: "parent.title") == nil)
            #expect(tree.root.value(forKeyPath: "children.title") as? Set<AnyHashable> == ["child"])
            #expect(tree.root.value(forKeyPath: "children.@distinctUnionOfObjects.title") as? [Any?] != nil)
            // A key after an attribute cannot be followed: nil, as before.
            #expect(tree.root.value(forKeyPath: "title.order") == nil)
        }
    }
}
