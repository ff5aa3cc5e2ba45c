import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

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

    /// A key of a sub-entity of the destination is followed through the objects, as KVC
    /// does: it works on objects of that sub-entity.
    @Test func keysOfASubEntityAreFollowedThroughTheObjects() throws {
        let stack = try TestStack(model: Models.people(), kind: .inMemory)
        stack.context.performAndWait {
            let department = stack.insert("Department", ["name": "R&D"])
            let employee = stack.insert("Employee", ["name": "Ada", "salary": Int32(10), "department": department])
            #expect(department.value(forKeyPath: "members.salary") as? Set<AnyHashable> == [Int32(10)])
            #expect(employee.value(forKeyPath: "department.name") as? String == "R&D")
            let loner = stack.insert("Employee", ["name": "Bob"])
            #expect(loner.value(forKeyPath: "department.name") == nil)
        }
    }
}
