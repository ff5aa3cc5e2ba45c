import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Synchronization
import Testing
@testable import ListsKit

/// One root item, created on first use, whoever gets there first.
@Suite struct ItemRootTests {
    static func roots(in context: ManagedObjectContext) throws -> [Item] {
        try context.performAndWait {
            let request = FetchRequest<Item>()
            request.predicate = try CDPredicate(format: "parent == nil")
            return try context.fetch(request)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theRootIsCreatedOnceAndReadAfterwards(kind: StoreKind) throws {
        let stack = try TestStack(model: NestedList.model(), kind: kind)
        let first = try stack.context.performAndWait { try Item.root(in: stack.context).objectID }
        let other = stack.newContext()
        let second = try other.performAndWait { try Item.root(in: other).objectID }
        #expect(first == second)
        #expect(try Self.roots(in: other).count == 1)
        try stack.context.performAndWait {
            let root = try Item.root(in: stack.context)
            #expect(root.title == "Lists" && root.isRoot == true && root.parent == nil && root.order == 0)
            #expect(!stack.context.hasChanges)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSecondRootBreaksTheUniquenessConstraint(kind: StoreKind) throws {
        let stack = try TestStack(model: NestedList.model(), kind: kind)
        try stack.context.performAndWait { _ = try Item.root(in: stack.context) }
        let other = stack.newContext()
        other.performAndWait {
            let second = Item(context: other)
            second.title = "Another"
            second.isRoot = true
            let error = #expect(throws: CoreDataError.self) { try other.save() }
            #expect(error?.code == .constraintViolation)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theRootCreationIsNotAnUndoStep(kind: StoreKind) throws {
        let stack = try TestStack(model: NestedList.model(), kind: kind)
        let undoManager = CDUndoManager()
        try stack.context.performAndWait {
            stack.context.undoManager = undoManager
            _ = try Item.root(in: stack.context)
            #expect(!undoManager.canUndo)
        }
    }

    /// Two coordinators on one file (two processes): B reads no root and inserts one; while
    /// B saves, A creates and saves its root first, so B's save breaks the constraint.
    ///
    /// ```
    /// B: fetch (none) ─ insert ─ save ┬──────────────── clash ─ drop ─ fetch → A's root
    /// A:                              └ root(in:) saves ┘
    /// ```
    @Test func aRootSavedFirstByAnotherCoordinatorWins() throws {
        let a = try TestStack(model: NestedList.model())
        let b = try a.reopened(model: NestedList.model())
        let contextA = a.context
        let observer = SaveHook(context: b.context) {
            try contextA.performAndWait { _ = try Item.root(in: contextA) }
        }
        let rootInB = try b.context.performAndWait { try Item.root(in: b.context).objectID }
        #expect(observer.calls == 1)            // B's save failed; B then read A's root
        let rootInA = try a.context.performAndWait { try Item.root(in: a.context).objectID }
        #expect(rootInA.uriRepresentation() == rootInB.uriRepresentation())
        #expect(try Self.roots(in: b.newContext()).count == 1)
        #expect(InvariantChecker.check(b.context) == [])
    }

    /// Two coordinators and two threads at once, several rounds: always one root.
    @Test func twoCoordinatorsRacingMakeOneRoot() throws {
        for _ in 0 ..< 5 {
            let a = try TestStack(model: NestedList.model())
            let b = try a.reopened(model: NestedList.model())
            let contexts = [a.context, b.context]
            let ids = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let context = contexts[index]
                let id = try? context.performAndWait { try Item.root(in: context).objectID.uriRepresentation().absoluteString }
                ids.withLock { $0.append(id ?? "error") }
            }
            let found = ids.withLock { $0 }
            #expect(Set(found).count == 1 && !found.contains("error"))
            #expect(try Self.roots(in: a.newContext()).count == 1)
        }
    }

    /// Two contexts of one coordinator racing (the in-memory store has one coordinator).
    @Test(arguments: StoreKind.allCases)
    func twoContextsRacingMakeOneRoot(kind: StoreKind) throws {
        let stack = try TestStack(model: NestedList.model(), kind: kind)
        let contexts = [stack.newContext(), stack.newContext()]
        let ids = Mutex<[ManagedObjectID?]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let context = contexts[index]
            let id = try? context.performAndWait { try Item.root(in: context).objectID }
            ids.withLock { $0.append(id) }
        }
        let found = ids.withLock { $0 }
        #expect(found.count == 2 && found[0] != nil && found[0] == found[1])
        #expect(try Self.roots(in: stack.newContext()).count == 1)
    }
}
