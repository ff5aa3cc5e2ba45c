import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Merge policies resolving rows changed in the store since a context read them.
///
/// Core Data documents the policies in one sentence each (developer.apple.com,
/// "Merge Policies"): `NSMergeByPropertyStoreTrumpMergePolicy` "merges conflicts between
/// the persistent store's version of the object and the current in-memory version by
/// individual property, with external changes trumping in-memory changes";
/// `…ObjectTrump…` the same "with in-memory changes trumping external changes";
/// `NSOverwriteMergePolicy` "overwrites the entire stored object"; `NSRollbackMergePolicy`
/// "discards unsaved changes"; `NSErrorMergePolicy`, the default, "is the only policy
/// that requires action to correct any conflicts". The cells below pin those sentences
/// down for a row X = (title "base", details "base-d") read by contexts A and B, A saving
/// first, then B saving under the policy.
@Suite struct MergePolicyTests {
    /// One entity with two optional string attributes.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [EntityDescription(name: "Row", properties: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "details", type: .string),
        ])])
    }

    /// Where contexts A and B live: one coordinator (SQLite or in-memory), or two
    /// coordinators on one SQLite file, as two processes would.
    enum Setup: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite, inMemory, sqliteTwoCoordinators
        var testDescription: String { rawValue }
        var kind: StoreKind { self == .inMemory ? .inMemory : .sqlite }
    }

    enum Edit: Sendable, CustomStringConvertible {
        case title(String), details(String), delete
        var description: String {
            switch self {
            case .title(let value): "title=\(value)"
            case .details(let value): "details=\(value)"
            case .delete: "deleted"
            }
        }
        func apply(to object: ManagedObject, in context: ManagedObjectContext) {
            switch self {
            case .title(let value): object.setValue(value, forKey: "title")
            case .details(let value): object.setValue(value, forKey: "details")
            case .delete: context.delete(object)
            }
        }
    }

    /// One cell of the table: A's change, B's change, the policy, and the row
    /// after B's save (nil: gone).
    struct Cell: Sendable, CustomTestStringConvertible {
        let a: Edit, b: Edit
        let policy: MergePolicy
        let expected: [String]?
        var testDescription: String { "\(a) / \(b) under \(policy.mergeType)" }

        static let all: [Cell] = {
            let rows: [(Edit, Edit, [[String]?])] = [
                (.title("store"), .title("mine"), [["store", "base-d"], ["mine", "base-d"], ["mine", "base-d"], ["store", "base-d"]]),
                (.details("store-d"), .title("mine"), [["mine", "store-d"], ["mine", "store-d"], ["mine", "base-d"], ["base", "store-d"]]),
                (.delete, .title("mine"), [nil, nil, ["mine", "base-d"], nil]),
                (.title("store"), .delete, [["store", "base-d"], nil, nil, ["store", "base-d"]]),
            ]
            let policies: [MergePolicy] = [.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback]
            return rows.flatMap { a, b, outcomes in zip(policies, outcomes).map { Cell(a: a, b: b, policy: $0, expected: $1) } }
        }()
    }

    /// Saves X, lets A and B read it, saves A's edit, then makes B's edit (not saved).
    private func scenario(_ setup: Setup, a: Edit, b: Edit) throws -> (stack: TestStack, id: ManagedObjectID, second: ManagedObjectContext, x: ManagedObject) {
        let stack = try TestStack(model: Self.model(), kind: setup.kind)
        let id = try stack.context.performAndWait {
            let x = stack.insert("Row", ["title": "base", "details": "base-d"])
            try stack.context.save()
            return x.objectID
        }
        let first = stack.newContext()
        let second = setup == .sqliteTwoCoordinators ? try stack.reopened().newContext() : stack.newContext()
        let x = try second.performAndWait { try second.existingObject(with: id) }
        try first.performAndWait {
            a.apply(to: try first.existingObject(with: id), in: first)
            try first.save()
        }
        second.performAndWait { b.apply(to: x, in: second) }
        return (stack, id, second, x)
    }

    /// The row as a fresh context reads it from the store; nil when it is gone.
    static func stored(_ id: ManagedObjectID, in stack: TestStack) -> [String]? {
        let reader = stack.newContext()
        return reader.performAndWait {
            guard let row = try? reader.existingObject(with: id) else { return nil }
            return [row.value(forKey: "title") as? String ?? "nil", row.value(forKey: "details") as? String ?? "nil"]
        }
    }

    @Test(arguments: Setup.allCases, Cell.all)
    func theTableCell(setup: Setup, cell: Cell) throws {
        let (stack, id, second, x) = try scenario(setup, a: cell.a, b: cell.b)
        try second.performAndWait {
            second.mergePolicy = cell.policy
            try second.save()
            #expect(!second.hasChanges)
            #expect(InvariantChecker.check(second) == [])
            if let expected = cell.expected {
                // The context's object shows the stored outcome, with its identity (a
                // re-inserted row keeps the object's ID).
                #expect(!x.isDeleted && x.managedObjectContext === second)
                #expect(x.objectID == id)
                #expect([x.value(forKey: "title") as? String ?? "nil", x.value(forKey: "details") as? String ?? "nil"] == expected)
            } else {
                #expect(x.managedObjectContext == nil)
                #expect(second.registeredObject(for: id) == nil)
            }
        }
        #expect(Self.stored(id, in: stack) == cell.expected)
        // A second save after the merge meets no conflict, even under `.error`.
        guard cell.expected != nil else { return }
        try second.performAndWait {
            second.mergePolicy = .error
            x.setValue("again", forKey: "title")
            try second.save()
        }
        #expect(Self.stored(id, in: stack)?.first == "again")
    }

    /// Under `.error` (the default) nothing is written, the context stays dirty, and each
    /// conflict carries the versions and the context's, last-read and stored values.
    @Test(arguments: Setup.allCases)
    func theErrorColumn(setup: Setup) throws {
        let rows: [(Edit, Edit, stored: [String]?)] = [
            (.title("store"), .title("mine"), ["store", "base-d"]),
            (.details("store-d"), .title("mine"), ["base", "store-d"]),
            (.delete, .title("mine"), nil),
            (.title("store"), .delete, ["store", "base-d"]),
        ]
        for (a, b, storedAfterA) in rows {
            let (stack, id, second, x) = try scenario(setup, a: a, b: b)
            let error = try #require(second.performAndWait { caughtError { try second.save() } })
            #expect(error.code == .mergeConflict)
            #expect(error.code.rawValue == 133020)
            let conflict = try #require(error.conflicts.first)
            #expect(error.conflicts.count == 1)
            #expect(conflict.sourceObjectID == id)
            #expect(conflict.oldVersion == 1)
            #expect(conflict.newVersion == (storedAfterA == nil ? 0 : 2))
            #expect(conflict.cachedSnapshot["title"] == .string("base") && conflict.cachedSnapshot["details"] == .string("base-d"))
            if case .title(let mine) = b { #expect(conflict.objectSnapshot["title"] == .string(mine)) }
            if let storedAfterA {
                #expect(conflict.persistedSnapshot?["title"] == .string(storedAfterA[0]))
                #expect(conflict.persistedSnapshot?["details"] == .string(storedAfterA[1]))
            } else {
                #expect(conflict.persistedSnapshot == nil)
            }
            #expect(Self.stored(id, in: stack) == storedAfterA)
            second.performAndWait {
                #expect(second.hasChanges)
                if case .delete = b { #expect(x.isDeleted) } else { #expect(x.value(forKey: "title") as? String == "mine") }
            }
        }
    }

    // MARK: - Overriding

    /// A policy that records what it is given and resolves nothing.
    final class Recording: MergePolicy, @unchecked Sendable {
        var calls = 0
        var seen: [ManagedObjectID] = []
        let delegates: Bool
        init(delegates: Bool) {
            self.delegates = delegates
            super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType)
        }
        override func resolve(optimisticLockingConflicts list: [MergeConflict], in context: ManagedObjectContext) throws {
            calls += 1
            seen += list.map(\.sourceObjectID)
            if delegates { try super.resolve(optimisticLockingConflicts: list, in: context) }
        }
    }

    /// Core Data lets a subclass of `NSMergePolicy` override the resolution and call
    /// `super` ("this class is designed with the expectation that you call super as the
    /// base implementation", NSMergePolicy reference, `init(merge:)`).
    @Test(arguments: StoreKind.allCases)
    func aSubclassSeesTheConflictsAndCanCallSuper(kind: StoreKind) throws {
        let setup: Setup = kind == .sqlite ? .sqlite : .inMemory
        let (stack, id, second, _) = try scenario(setup, a: .title("store"), b: .title("mine"))
        let policy = Recording(delegates: true)
        try second.performAndWait {
            second.mergePolicy = policy
            try second.save()
        }
        #expect(policy.calls == 1 && policy.seen == [id])
        #expect(Self.stored(id, in: stack) == ["mine", "base-d"])
    }

    /// A policy that leaves the conflict in place cannot loop forever: the save gives up
    /// after a bounded number of attempts with the `.mergeConflict` error, writing nothing.
    @Test(arguments: StoreKind.allCases)
    func aConflictThatKeepsComingBackEndsInTheError(kind: StoreKind) throws {
        let setup: Setup = kind == .sqlite ? .sqlite : .inMemory
        let (stack, id, second, _) = try scenario(setup, a: .title("store"), b: .title("mine"))
        let policy = Recording(delegates: false)
        let error = second.performAndWait {
            second.mergePolicy = policy
            return caughtError { try second.save() }
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.conflicts.map(\.sourceObjectID) == [id])
        #expect(policy.calls == ManagedObjectContext.maximumConflictResolutions)
        #expect(Self.stored(id, in: stack) == ["store", "base-d"])
        second.performAndWait { #expect(second.hasChanges) }
    }

    // MARK: - The doc's example

    @Test func theDocExampleRuns() throws {
        // example: merge-policies
        let model = ManagedObjectModel(entities: [EntityDescription(name: "Row", properties: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "details", type: .string),
        ])])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory, at: nil)
        let setup = ManagedObjectContext(concurrencyType: .privateQueue)
        setup.persistentStoreCoordinator = coordinator
        let id = try setup.performAndWait {
            let row = EntityDescription.insertNewObject(forEntityName: "Row", into: setup)
            row.setValue("base", forKey: "title")
            row.setValue("base-d", forKey: "details")
            try setup.save()
            return row.objectID
        }

        let a = ManagedObjectContext(concurrencyType: .privateQueue)
        let b = ManagedObjectContext(concurrencyType: .privateQueue)
        a.persistentStoreCoordinator = coordinator
        b.persistentStoreCoordinator = coordinator
        let rowInB = try b.performAndWait { try b.existingObject(with: id) }   // B reads version 1

        try a.performAndWait {                                                // A changes the details
            try a.existingObject(with: id).setValue("store-d", forKey: "details")
            try a.save()
        }
        try b.performAndWait {                                                // B changes the title
            rowInB.setValue("mine", forKey: "title")
            b.mergePolicy = .mergeByPropertyObjectTrump                       // without it: .mergeConflict
            try b.save()
            print(rowInB.value(forKey: "title")!, rowInB.value(forKey: "details")!)   // mine store-d
        }
        // end example
        b.performAndWait {
            #expect(rowInB.value(forKey: "title") as? String == "mine")
            #expect(rowInB.value(forKey: "details") as? String == "store-d")
            #expect(!b.hasChanges)
        }
        let check = ManagedObjectContext(concurrencyType: .privateQueue)
        check.persistentStoreCoordinator = coordinator
        try check.performAndWait {
            let row = try check.existingObject(with: id)
            #expect(row.value(forKey: "title") as? String == "mine" && row.value(forKey: "details") as? String == "store-d")
        }
        #expect(DocExample.mismatch(doc: "merge-policies.md", name: "merge-policies") == nil)
    }
}
