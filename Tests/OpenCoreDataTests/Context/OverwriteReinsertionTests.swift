import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// `.overwrite` writes an object whose row was deleted elsewhere again (issue 10's grid);
/// these are the cases around it that ContextStressTests met: what it points at was
/// deleted too, it was never read, or another context wrote it again first.
@Suite struct OverwriteReinsertionTests {
    static func items(_ stack: TestStack) throws -> [String: String?] {
        let fresh = stack.newContext()
        return try fresh.performAndWait {
            var parents: [String: String?] = [:]
            for item in try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                let title = item.value(forKey: "title") as? String ?? "?"
                parents[title] = (item.value(forKey: "parent") as? ManagedObject)?.value(forKey: "title") as? String
            }
            #expect(InvariantChecker.check(fresh).isEmpty)
            return parents
        }
    }

    static func seed(_ stack: TestStack) throws {
        try stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "root"])
            let list = stack.insert("Item", ["title": "list", "parent": root])
            _ = stack.insert("Item", ["title": "a", "parent": list])
            try stack.context.save()
        }
    }

    static func delete(_ title: String, in stack: TestStack) throws {
        let other = stack.newContext()
        try other.performAndWait {
            for item in try other.fetch(FetchRequest<ManagedObject>(entityName: "Item")) where item.value(forKey: "title") as? String == title {
                other.delete(item)
            }
            try other.save()
        }
    }

    /// Another context deleted the list (and by cascade its item "a") while this one added
    /// "b" under "a": "a" is written again, and so is the list it points at, so that no
    /// row points at a missing parent and the tree keeps one root.
    @Test(arguments: StoreKind.allCases)
    func whatAReinsertedObjectPointsAtIsWrittenAgainToo(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try Self.seed(stack)
        let editor = stack.newContext()
        editor.mergePolicy = .overwrite
        try editor.performAndWait {
            let items = try editor.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            let a = try #require(items.first { $0.value(forKey: "title") as? String == "a" })
            try Self.delete("list", in: stack)
            let b = EntityDescription.insertNewObject(forEntityName: "Item", into: editor)
            b.setValue("b", forKey: "title")
            b.setValue(a, forKey: "parent")
            try editor.save()
        }
        #expect(try Self.items(stack) == ["root": nil, "list": "root", "a": "list", "b": "a"])
    }

    /// An object this context never read (it was deleted before its fault fired) cannot
    /// be written again: its delete stands, and what was added under it follows the
    /// delete's cascade rather than becoming a second root. Under `.error` the save
    /// reports the missing row as a conflict (not as the object's empty values failing
    /// validation), and keeps its changes.
    @Test(arguments: StoreKind.allCases, [MergePolicy.overwrite, .error])
    func anObjectNeverReadIsNotWrittenAgain(kind: StoreKind, policy: MergePolicy) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try Self.seed(stack)
        let aID = try stack.context.performAndWait { try #require(try stack.fetch("Item", "title == %@", "a").first).objectID }
        try Self.delete("a", in: stack)
        let editor = stack.newContext()
        editor.mergePolicy = policy
        try editor.performAndWait {
            let a = editor.object(with: aID)
            let b = EntityDescription.insertNewObject(forEntityName: "Item", into: editor)
            b.setValue("b", forKey: "title")
            b.setValue(a, forKey: "parent")
            if policy.mergeType == .errorMergePolicyType {
                let error = #expect(throws: CoreDataError.self) { try editor.save() }
                #expect(error?.code == .mergeConflict)
                #expect(error?.conflicts.map(\.sourceObjectID) == [aID])
                #expect(error?.conflicts.first?.newVersion == 0, "the row is gone")
                #expect(editor.hasChanges)
            } else {
                try editor.save()
                #expect(!editor.hasChanges)
            }
        }
        #expect(try Self.items(stack) == ["root": nil, "list": "root"])
    }

    /// Two contexts write one deleted row again: the second finds the first's row and
    /// writes over it, rather than failing on its primary key.
    @Test(arguments: StoreKind.allCases)
    func twoContextsWritingARowAgainOverwriteInTurn(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try Self.seed(stack)
        let editors = [stack.newContext(), stack.newContext()]
        for (index, editor) in editors.enumerated() {
            editor.mergePolicy = .overwrite
            try editor.performAndWait {
                let a = try #require(try editor.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first { $0.value(forKey: "title") as? String == "a" })
                a.setValue("a\(index)", forKey: "title")
            }
        }
        try Self.delete("a", in: stack)
        for editor in editors { try editor.performAndWait { try editor.save() } }
        #expect(try Self.items(stack) == ["root": nil, "list": "root", "a1": "list"])
    }
}

/// Both sides of a one-to-many relationship agree after a merge policy resolves a conflict
/// over it: the members' own rows decide (found by ContextStressTests: under `.overwrite`
/// an item written whole kept its list in its row, but the list's resolved members left it
/// out, and unlinking it nullified its parent — a second root).
@Suite struct OneToManyResolutionTests {
    @Test(arguments: StoreKind.allCases, [MergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback])
    func anItemMovedElsewhereAndRenumberedHereWhileAnotherLeaves(kind: StoreKind, policy: MergePolicy) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "root"])
            let first = stack.insert("Item", ["title": "first", "parent": root])
            _ = stack.insert("Item", ["title": "second", "order": Int64(1), "parent": root])
            _ = stack.insert("Item", ["title": "third", "order": Int64(2), "parent": root])
            _ = stack.insert("Item", ["title": "x", "order": Int64(0), "parent": first])
            _ = stack.insert("Item", ["title": "y", "order": Int64(1), "parent": first])
            try stack.context.save()
        }
        let editor = stack.newContext()
        editor.mergePolicy = policy
        let items = try editor.performAndWait {
            let items = Dictionary(uniqueKeysWithValues: try editor.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map { ($0.value(forKey: "title") as? String ?? "?", $0) })
            _ = items["first"]?.value(forKey: "children")   // the list as read: x and y
            return items
        }
        let other = stack.newContext()
        try other.performAndWait {
            let y = try #require(try other.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first { $0.value(forKey: "title") as? String == "y" })
            let second = try #require(try other.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first { $0.value(forKey: "title") as? String == "second" })
            y.setValue(second, forKey: "parent")
            y.setValue(Int64(0), forKey: "order")
            try other.save()
        }
        try editor.performAndWait {
            items["x"]?.setValue(items["third"], forKey: "parent")
            items["y"]?.setValue(Int64(0), forKey: "order")
            try editor.save()
        }
        let parents = try OverwriteReinsertionTests.items(stack)
        let yWrittenWhole = policy.mergeType == .overwriteMergePolicyType
        #expect(parents == ["root": nil, "first": "root", "second": "root", "third": "root", "x": "third", "y": yWrittenWhole ? "first" : "second"])
    }
}
