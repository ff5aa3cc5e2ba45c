import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// `InvariantChecker` itself: silent on a sound graph, and it catches each broken
/// invariant it checks (made with `setPrimitiveValue`, which does not maintain inverses).
@Suite struct InvariantCheckerTests {
    @Test(arguments: StoreKind.allCases)
    func aSoundGraphHasNoProblems(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let tree = stack.insertItemTree()
            #expect(InvariantChecker.check(stack.context) == [])
            try stack.context.save()
            tree.child.setValue(tree.other, forKey: "parent")
            #expect(InvariantChecker.check(stack.context) == [])
        }
    }

    @Test func aToOneWhoseInverseLacksTheObjectIsCaught() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        stack.context.performAndWait {
            let (root, child, _, other) = stack.insertItemTree()
            child.setPrimitiveValue(other, forKey: "parent")
            let problems = InvariantChecker.check(stack.context)
            let (c, r, o) = (label(child), label(root), label(other))
            #expect(problems.count == 2)
            #expect(Set(problems) == [
                "\(r).children contains \(c), but \(c).parent is \(o)",
                "\(c).parent → \(o), but \(o).children does not contain it",
            ])
        }
    }

    @Test func aToManyMemberThatDoesNotPointBackIsCaught() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        stack.context.performAndWait {
            let (root, child, _, other) = stack.insertItemTree()
            root.setPrimitiveValue(Set([child, other]), forKey: "children")
            #expect(InvariantChecker.check(stack.context) == [
                "\(label(root)).children contains \(label(other)), but \(label(other)).parent is nil",
            ])
        }
    }

    /// A relationship without an inverse (and so without a delete rule reaching it) keeps
    /// pointing at an object deleted since: Core Data allows it, the checker reports it.
    @Test(arguments: StoreKind.allCases)
    func aReferenceToADeletedAndSavedObjectIsCaught(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let folder = stack.insert("Folder", ["name": "inbox"])
            let note = stack.insert("Note", ["text": "pinned"])
            folder.setValue(note, forKey: "pinned")
            try stack.context.save()
            #expect(InvariantChecker.check(stack.context) == [])
            stack.context.delete(note)
            try stack.context.save()
            let problems = InvariantChecker.check(stack.context)
            #expect(problems.count == 1)
            #expect(problems.first?.hasPrefix("\(label(folder)).pinned → Note") == true, "\(problems)")
        }
    }

    private func label(_ object: ManagedObject) -> String {
        "\(object.entity.name) \(object.objectID.uriRepresentation().lastPathComponent)"
    }
}
