import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Undo and redo of a context's events (`ListItem`, the nested list with
/// `prepareForDeletion` renumbering later siblings, from `NestedListScenarioTests`), on
/// both stores. Core Data: `undo()` "reverse[s] the latest uncommitted changes"; undo
/// after a save makes the context dirty again, and `rollback()` "removes everything from
/// the undo stack" (developer.apple.com/documentation/coredata/nsmanagedobjectcontext).
@Suite struct ManagedObjectContextUndoTests {
    static func stack(_ kind: StoreKind) throws -> (TestStack, CDUndoManager) {
        let stack = try TestStack(model: NestedListScenarioTests.model(), kind: kind)
        let manager = CDUndoManager()
        stack.context.performAndWait { stack.context.undoManager = manager }
        return (stack, manager)
    }

    /// Every item the context holds (pending changes included), as sorted
    /// "title(order)<parent" lines.
    static func state(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch(FetchRequest<ListItem>(entityName: "Item")).map(line).sorted()
    }

    /// The same lines read from the store by a fresh context.
    static func storeState(_ stack: TestStack) throws -> [String] {
        let other = stack.newContext()
        return try other.performAndWait { try state(other) }
    }

    static func line(_ item: ListItem) -> String {
        "\(item.title)(\(item.order))<\(item.parent?.title ?? "-")"
    }

    @Test func theUndoManagerIsNilByDefault() {
        #expect(ManagedObjectContext(concurrencyType: .privateQueue).undoManager == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func undoOfAnInsertRemovesItAndRedoBringsBackTheSameObject(kind: StoreKind) throws {
        let (stack, manager) = try Self.stack(kind)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            let milk = ListItem.insert("Milk", parent: nil, into: context)
            manager.setActionName("Add Item “Milk”")
            context.processPendingChanges()
            #expect(manager.undoMenuItemTitle == "Undo Add Item “Milk”")
            context.undo()
            #expect(milk.managedObjectContext == nil)
            #expect(context.insertedObjects.isEmpty && !context.hasChanges)
            try #expect(Self.state(context) == [])
            #expect(manager.redoMenuItemTitle == "Redo Add Item “Milk”")
            context.redo()
            #expect(milk.managedObjectContext === context && milk.isInserted)
            #expect(context.registeredObject(for: milk.objectID) === milk)
            try #expect(context.fetch(FetchRequest<ListItem>(entityName: "Item")).first === milk)
            try context.save()
            try #expect(Self.storeState(stack) == ["Milk(0)<-"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func undoOfACascadeDeleteRestoresTheSubtreeAndTheSiblingsOrder(kind: StoreKind) throws {
        let (stack, manager) = try Self.stack(kind)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            let root = ListItem.insert("root", parent: nil, into: context)
            let a = ListItem.insert("a", parent: root, into: context)
            let b = ListItem.insert("b", parent: root, into: context)
            _ = ListItem.insert("c", parent: root, into: context)
            let a1 = ListItem.insert("a1", parent: a, into: context)
            _ = ListItem.insert("a1x", parent: a1, into: context)
            _ = ListItem.insert("a2", parent: a, into: context)
            try context.save()
            let saved = try Self.state(context)
            #expect(NestedListScenarioTests.outline(root) == "root(0)[a(0)[a1(0)[a1x(0)] a2(1)] b(1) c(2)]")

            context.delete(a)
            manager.setActionName("Delete Item “a”")
            context.processPendingChanges()
            #expect(NestedListScenarioTests.outline(root) == "root(0)[b(0) c(1)]")
            #expect(context.deletedObjects.count == 4)

            context.undo()
            #expect(NestedListScenarioTests.outline(root) == "root(0)[a(0)[a1(0)[a1x(0)] a2(1)] b(1) c(2)]")
            try #expect(Self.state(context) == saved)
            #expect(!context.hasChanges, "undoing back to the saved state leaves nothing to save")
            #expect(b.parent === root && a.children.count == 2)
            #expect(InvariantChecker.check(context) == [])

            context.redo()
            #expect(NestedListScenarioTests.outline(root) == "root(0)[b(0) c(1)]")
            #expect(context.deletedObjects.count == 4)
            try context.save()
            try #expect(Self.storeState(stack) == ["b(0)<root", "c(1)<root", "root(0)<-"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func undoAcrossASaveMakesTheContextDirtyAndTheNextSaveWritesTheRestoredState(kind: StoreKind) throws {
        let (stack, manager) = try Self.stack(kind)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            let root = ListItem.insert("root", parent: nil, into: context)
            let a = ListItem.insert("a", parent: root, into: context)
            _ = ListItem.insert("a1", parent: a, into: context)
            _ = ListItem.insert("b", parent: root, into: context)
            manager.setActionName("Add")
            try context.save()
            let afterInsert = try Self.state(context)

            context.delete(a)
            manager.setActionName("Delete")
            try context.save()
            try #expect(Self.storeState(stack) == ["b(0)<root", "root(0)<-"])

            // The delete was saved: undo re-inserts the subtree (same objects).
            context.undo()
            #expect(context.hasChanges)
            #expect(Set(context.insertedObjects.compactMap { ($0 as? ListItem)?.title }) == ["a", "a1"])
            #expect(context.updatedObjects.count == 2, "root's children and b's order changed back")
            try #expect(Self.state(context) == afterInsert)
            try context.save()
            try #expect(Self.storeState(stack) == afterInsert)
            #expect(InvariantChecker.check(context) == [])

            // Undo the insert event, which was saved too: every row goes.
            context.undo()
            #expect(context.deletedObjects.count == 4)
            #expect(manager.redoActionName == "Add")
            try context.save()
            try #expect(Self.storeState(stack) == [])

            // Redo both: the same objects come back, then the delete again.
            context.redo()
            #expect(a.managedObjectContext === context && a.isInserted)
            try context.save()
            try #expect(Self.storeState(stack) == afterInsert)
            context.redo()
            try context.save()
            try #expect(Self.storeState(stack) == ["b(0)<root", "root(0)<-"])
            #expect(!manager.canRedo)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func attributeAndRelationshipChangesUndoOnBothSides(kind: StoreKind) throws {
        let (stack, manager) = try Self.stack(kind)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            let first = ListItem.insert("first", parent: nil, into: context)
            let second = ListItem.insert("second", parent: nil, into: context)
            let child = ListItem.insert("child", parent: first, into: context)
            try context.save()

            child.setValue(second, forKey: "parent")
            child.setValue("moved", forKey: "title")
            child.order = 5
            manager.setActionName("Move")
            context.processPendingChanges()
            try context.save()

            context.undo()
            #expect(child.parent === first && child.title == "child" && child.order == 0)
            #expect(first.children == [child] && second.children.isEmpty)
            #expect(context.updatedObjects == [child, first, second])
            try context.save()
            try #expect(Self.storeState(stack) == ["child(0)<first", "first(0)<-", "second(0)<-"])

            context.redo()
            #expect(child.parent === second && second.children == [child] && first.children.isEmpty)
            #expect(InvariantChecker.check(context) == [])
        }
    }

    @Test func everythingChangedInOneEventIsOneNamedStep() throws {
        let (stack, manager) = try Self.stack(.inMemory)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            let list = ListItem.insert("list", parent: nil, into: context)
            context.processPendingChanges()
            manager.setActionName("Add Items")
            for title in ["x", "y", "z"] { _ = ListItem.insert(title, parent: list, into: context) }
            list.setValue("renamed", forKey: "title")
            context.processPendingChanges()
            #expect(manager.undoActionName == "Add Items")
            context.undo()
            try #expect(Self.state(context) == ["list(0)<-"])
            #expect(manager.undoActionName == "")
        }
    }

    @Test func theUndoManagersOwnUndoRegistersThePendingEventFirst() throws {
        let (stack, manager) = try Self.stack(.inMemory)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            _ = ListItem.insert("kept", parent: nil, into: context)
            context.processPendingChanges()
            _ = ListItem.insert("pending", parent: nil, into: context)
            // No processPendingChanges: the manager's checkpoint makes the context register
            // the open event, as Core Data's context does on NSUndoManagerCheckpoint.
            manager.undo()
            try #expect(Self.state(context) == ["kept(0)<-"])
        }
    }

    @Test func disabledRegistrationAndRollbackLeaveNothingToUndo() throws {
        let (stack, manager) = try Self.stack(.inMemory)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            manager.disableUndoRegistration()
            _ = ListItem.insert("imported", parent: nil, into: context)
            context.processPendingChanges()
            manager.enableUndoRegistration()
            #expect(!manager.canUndo)
            _ = ListItem.insert("typed", parent: nil, into: context)
            context.processPendingChanges()
            #expect(manager.canUndo)
            context.rollback()
            #expect(!manager.canUndo)
            context.undoManager = nil
            _ = ListItem.insert("unrecorded", parent: nil, into: context)
            context.processPendingChanges()
            #expect(!manager.canUndo)
        }
    }

    /// Random edits, some saved, undone and redone in random runs: after each undo or
    /// redo the context holds what it held at that step, and after every save the store
    /// holds what the context shows. `OCD_SEED` replays a run.
    @Test(arguments: StoreKind.allCases)
    func randomEditsUndoAndRedoToEachEarlierState(kind: StoreKind) throws {
        var random = SeededRandom.fromEnvironment(for: "ManagedObjectContextUndoTests.random.\(kind)")
        let (stack, manager) = try Self.stack(kind)
        let context = stack.context
        try context.performAndWait { () throws -> Void in
            var states = [try Self.state(context)]  // states[i]: after i undoable steps
            var position = 0
            var serial = 0
            func save() throws {
                try context.save()
                let stored = try Self.storeState(stack)
                #expect(stored == states[position], "store after save at step \(position)")
            }
            for _ in 0..<60 {
                if random.chance(0.6) {
                    try edit(context, &random, &serial)
                    context.processPendingChanges()
                    states.removeSubrange((position + 1)...)
                    states.append(try Self.state(context))
                    position += 1
                } else if random.chance(0.5), position > 0 {
                    context.undo()
                    position -= 1
                    let now = try Self.state(context)
                    #expect(now == states[position], "after undo to step \(position)")
                } else if position < states.count - 1 {
                    context.redo()
                    position += 1
                    let now = try Self.state(context)
                    #expect(now == states[position], "after redo to step \(position)")
                }
                #expect(manager.canUndo == (position > 0))
                if random.chance(0.3) { try save() }
            }
            #expect(InvariantChecker.check(context) == [])
            while position > 0 {
                context.undo()
                position -= 1
                if random.chance(0.3) { try save() }
            }
            try save()
            try #expect(Self.storeState(stack) == [])
        }
    }

    /// One random edit that changes something: insert, delete (cascading), rename, move.
    private func edit(_ context: ManagedObjectContext, _ random: inout SeededRandom, _ serial: inout Int) throws {
        let items = try context.fetch(FetchRequest<ListItem>(entityName: "Item")).sorted { $0.title < $1.title }
        serial += 1
        let choice = items.isEmpty ? 0 : Int.random(in: 0..<4, using: &random)
        switch choice {
        case 0:
            _ = ListItem.insert("i\(serial)", parent: items.isEmpty || random.chance(0.2) ? nil : random.pick(items), into: context)
        case 1:
            context.delete(random.pick(items))
        case 2:
            random.pick(items).setValue("r\(serial)", forKey: "title")
        default:
            let item = random.pick(items)
            func isBelow(_ candidate: ListItem) -> Bool {
                var step: ListItem? = candidate
                while let current = step { if current === item { return true }; step = current.parent }
                return false
            }
            let targets = items.filter { !isBelow($0) && $0 !== item.parent }
            guard let target = targets.isEmpty ? nil : random.pick(targets) else {
                item.setValue("r\(serial)", forKey: "title")
                return
            }
            item.order = Int64(target.children.count)
            item.setValue(target, forKey: "parent")
        }
    }
}
