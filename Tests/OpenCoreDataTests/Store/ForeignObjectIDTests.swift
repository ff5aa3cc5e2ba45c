import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Object IDs of another coordinator's store, handed to this coordinator: they name no
/// object here, even when a row here has the same entity and primary key.
@Suite struct ForeignObjectIDTests {
    /// Two stacks whose stores each hold one item tree with the same primary keys; the
    /// IDs of `theirs` are foreign to `ours`.
    private struct TwoStacks {
        let ours: TestStack
        let theirs: TestStack
        let ourRoot: ManagedObject
        let theirRoot: ManagedObject
        let theirChild: ManagedObject

        init(_ kind: StoreKind, sharingModel: Bool = true) throws {
            ours = try TestStack(model: Models.nestedList(), kind: kind)
            theirs = try TestStack(model: sharingModel ? ours.model : Models.nestedList(), kind: kind)
            ourRoot = ours.insertItemTree().root
            try ours.context.save()
            let tree = theirs.insertItemTree()
            (theirRoot, theirChild) = (tree.root, tree.child)
            try theirs.context.save()
        }
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func existingObjectWithAForeignIDThrowsObjectNotFound(kind: StoreKind, sharingModel: Bool) throws {
        let stacks = try TwoStacks(kind, sharingModel: sharingModel)
        #expect(stacks.theirRoot.objectID.primaryKey == stacks.ourRoot.objectID.primaryKey)
        for context in [stacks.ours.context, stacks.ours.newContext()] {
            let error = try #require(throws: CoreDataError.self) { try context.existingObject(with: stacks.theirRoot.objectID) }
            #expect(error.code == .objectNotFound)
        }
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func objectWithAForeignIDIsAFaultThatReadsAsInaccessible(kind: StoreKind, sharingModel: Bool) throws {
        let stacks = try TwoStacks(kind, sharingModel: sharingModel)
        let context = stacks.ours.newContext()
        let fault = context.object(with: stacks.theirRoot.objectID)
        #expect(fault.isFault)
        #expect(fault.value(forKey: "title") == nil)
        #expect(fault.isDeleted)
        #expect(context.lastFaultError?.code == .objectNotFound)
        // Our own object with the same primary key is untouched.
        #expect(try context.existingObject(with: stacks.ourRoot.objectID).value(forKey: "title") as? String == "root")
    }

    @Test(arguments: StoreKind.allCases)
    func aPredicateWithAForeignObjectMatchesNoRowHere(kind: StoreKind) throws {
        let stacks = try TwoStacks(kind)
        let theirs = stacks.theirRoot.objectID
        let ours = stacks.ourRoot.objectID
        #expect(try stacks.ours.fetch("Item", "parent == %@", ours).map { $0.value(forKey: "title") as? String } == ["child"])
        #expect(try stacks.ours.fetch("Item", "parent == %@", theirs).isEmpty)
        #expect(try stacks.ours.fetch("Item", "parent == %@", stacks.theirRoot).isEmpty)
        #expect(try stacks.ours.fetch("Item", "self == %@", theirs).isEmpty)
        #expect(try stacks.ours.fetch("Item", "parent IN %@", [theirs, stacks.theirChild.objectID]).isEmpty)
        #expect(try stacks.ours.fetch("Item", "parent != %@", theirs).count == 4)
        #expect(try stacks.ours.fetch("Item", "ANY children == %@", stacks.theirChild.objectID).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aTemporaryObjectMatchesNoStoredRow(kind: StoreKind) throws {
        let stacks = try TwoStacks(kind)
        let scratch = stacks.ours.newContext()
        let pending = EntityDescription.insertNewObject(forEntityName: "Item", into: scratch)
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try CDPredicate(format: "parent == %@", argumentArray: [pending.objectID])
        #expect(try stacks.ours.newContext().fetch(request).isEmpty)
        request.predicate = try CDPredicate(format: "parent != %@", argumentArray: [pending.objectID])
        #expect(try stacks.ours.newContext().fetch(request).count == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func aForeignObjectCannotBeLinkedOrDeletedThroughItsID(kind: StoreKind) throws {
        let stacks = try TwoStacks(kind)
        let context = stacks.ours.context
        let foreign = context.object(with: stacks.theirRoot.objectID)
        let item = stacks.ours.insert("Item", ["title": "new"])
        item.setValue(foreign, forKey: "parent")
        // Both sides of the link are refused: the new item's parent, the fault's children
        // (the inaccessible fault also misses its mandatory values).
        let error = try #require(throws: CoreDataError.self) { try context.save() }
        let external = error.underlyingErrors.filter { $0.code == .externalRelationship }
        #expect(Set(external.compactMap(\.key)) == ["parent", "children"])
        context.rollback()

        context.delete(context.object(with: stacks.theirRoot.objectID))
        #expect(throws: CoreDataError.self) { try context.save() }
        context.rollback()
        #expect(try stacks.ours.newContext().existingObject(with: stacks.ourRoot.objectID).value(forKey: "title") as? String == "root")
    }

    @Test func relatingAnObjectOfAnotherCoordinatorTraps() async {
        await #expect(processExitsWith: .failure) {
            let ours = try TestStack(model: Models.nestedList(), kind: .inMemory)
            let theirs = try TestStack(model: ours.model, kind: .inMemory)
            let foreign = theirs.context.performAndWait { theirs.insert("Item") }
            ours.context.performAndWait { ours.insert("Item").setValue(foreign, forKey: "parent") }
        }
    }
}
