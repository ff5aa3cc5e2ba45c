import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Fetches see the context's unsaved inserts, changes and deletes (`includesPendingChanges`).
@Suite struct PendingChangesFetchTests {
    /// Saved samples s0…s5 with int64 = 0, 10, …, 50; then, unsaved: n1 (25), n2 (5) and
    /// n3 (60) inserted, s3 deleted, s4 changed to 1, s1 changed to 35 and s2 to 55.
    ///
    /// Matching `int64 >= 20`, by int64: the store has s2 s3 s4 s5; with the pending
    /// changes it is n1 (25), s1 (35), s5 (50), s2 (55), n3 (60).
    private func stackWithPendingChanges(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            for i in 0..<6 { _ = stack.insert("Sample", ["key": "s\(i)", "int64": i * 10]) }
            try stack.context.save()
            stack.context.reset()
            let saved = try stack.context.fetch(stack.request(sortedBy: ["key"]))
            for (key, value) in [("n1", 25), ("n2", 5), ("n3", 60)] { _ = stack.insert("Sample", ["key": key, "int64": value]) }
            stack.context.delete(saved[3])
            saved[4].setValue(1, forKey: "int64")
            saved[1].setValue(35, forKey: "int64")
            saved[2].setValue(55, forKey: "int64")
        }
        return stack
    }

    private let matching = "int64 >= 20"

    @Test(arguments: StoreKind.allCases)
    func insertsUpdatesAndDeletesAreMergedAndReSorted(kind: StoreKind) throws {
        let stack = try stackWithPendingChanges(kind)
        #expect(try stack.keys(stack.request(matching, sortedBy: ["int64"])) == ["n1", "s1", "s5", "s2", "n3"])
        #expect(try stack.keys(stack.request(matching, sortedBy: ["-int64"])) == ["n3", "s2", "s5", "s1", "n1"])
        #expect(try stack.keys(stack.request(matching, sortedBy: ["key"])) == ["n1", "n3", "s1", "s2", "s5"])
        #expect(try Set(stack.keys(stack.request(matching))) == ["n1", "n3", "s1", "s2", "s5"])
        #expect(try stack.keys(stack.request("int64 < 20", sortedBy: ["int64"])) == ["s0", "s4", "n2"])
        #expect(try stack.keys(stack.request(sortedBy: ["key"])) == ["n1", "n2", "n3", "s0", "s1", "s2", "s4", "s5"])
    }

    @Test(arguments: StoreKind.allCases)
    func limitAndOffsetApplyToTheMergedResult(kind: StoreKind) throws {
        let stack = try stackWithPendingChanges(kind)
        for (offset, limit, expected) in [(0, 2, ["n1", "s1"]), (1, 2, ["s1", "s5"]), (3, 0, ["s2", "n3"]), (4, 5, ["n3"]), (5, 1, [])] {
            let request = try stack.request(matching, sortedBy: ["int64"])
            request.fetchOffset = offset
            request.fetchLimit = limit
            #expect(try stack.keys(request) == expected, "offset \(offset) limit \(limit)")
            #expect(try stack.context.performAndWait { try stack.context.count(for: request) } == expected.count, "offset \(offset) limit \(limit)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func countsAndObjectIDsAgreeWithTheObjects(kind: StoreKind) throws {
        let stack = try stackWithPendingChanges(kind)
        try stack.context.performAndWait {
            for format in [matching, "int64 < 20", "TRUEPREDICATE", "key == 's3'", "key == 'n2' OR int64 == 35"] {
                let objects = try stack.context.fetch(stack.request(format, sortedBy: ["int64"]))
                #expect(try stack.context.count(for: stack.request(format)) == objects.count, "\(format)")
                let count = FetchRequest<NSNumber>(entityName: "Sample")
                count.resultType = .countResultType
                count.predicate = try CDPredicate(format: format)
                #expect(try stack.context.fetch(count) == [NSNumber(value: objects.count)], "\(format)")
                let ids = FetchRequest<ManagedObjectID>(entityName: "Sample")
                ids.resultType = .managedObjectIDResultType
                ids.predicate = count.predicate
                ids.sortDescriptors = [CDSortDescriptor(key: "int64")]
                #expect(try stack.context.fetch(ids) == objects.map(\.objectID), "\(format)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func withoutPendingChangesOnlyTheStoreIsSeen(kind: StoreKind) throws {
        let stack = try stackWithPendingChanges(kind)
        let request = try stack.request(matching, sortedBy: ["int64"])
        request.includesPendingChanges = false
        // The stored values decide membership and order, whatever the objects hold now.
        #expect(try stack.keys(request) == ["s2", "s3", "s4", "s5"])
        try stack.context.performAndWait { () throws in
            #expect(try stack.context.count(for: request) == 4)
            request.fetchOffset = 1
            request.fetchLimit = 2
            #expect(try stack.context.fetch(request).map { $0.value(forKey: "key") as? String } == ["s3", "s4"])
            #expect(try stack.context.count(for: request) == 2)
            let ids = FetchRequest<ManagedObjectID>(entityName: "Sample")
            ids.resultType = .managedObjectIDResultType
            ids.includesPendingChanges = false
            #expect(try stack.context.fetch(ids).allSatisfy { !$0.isTemporaryID })
            #expect(try stack.context.fetch(ids).count == 6)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func cascadedAndRolledBackObjectsAreExcluded(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let (root, child, _, _) = stack.insertItemTree()
            try stack.context.save()
            let temporary = stack.insert("Item", ["title": "temporary", "parent": child])
            #expect(try stack.fetch("Item", sortedBy: "title").map { $0.value(forKey: "title") as? String } == ["child", "grandchild", "other", "root", "temporary"])
            stack.context.delete(root)   // cascades at the fetch's processPendingChanges
            #expect(try stack.fetch("Item").map { $0.value(forKey: "title") as? String } == ["other"])
            #expect(!temporary.isInserted && !stack.context.insertedObjects.contains(temporary))
            stack.context.rollback()
            #expect(try stack.fetch("Item", sortedBy: "title").count == 4)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pendingObjectsOfSubEntitiesFollowIncludesSubentities(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.people(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Employee", ["name": "saved"])
            try stack.context.save()
            _ = stack.insert("Employee", ["name": "new"])
            _ = stack.insert("Contractor", ["name": "contractor"])
            for (entity, includes, expected) in [("Person", true, 3), ("Person", false, 0), ("Employee", true, 2), ("Contractor", false, 1)] {
                let request = FetchRequest<ManagedObject>(entityName: entity)
                request.includesSubentities = includes
                #expect(try stack.context.fetch(request).count == expected, "\(entity) \(includes)")
                #expect(try stack.context.count(for: request) == expected, "\(entity) \(includes)")
            }
        }
    }

    @Test func anUnknownKeyThrowsWithPendingInsertsToo() throws {
        // The in-memory store's case crashes: see KnownBugTests.
        let stack = try TestStack(model: Models.samples(), kind: .sqlite)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "new"])
            let error = try #require(throws: CoreDataError.self) { try stack.context.fetch(stack.request("nosuch == 1")) }
            #expect(error.message.contains("nosuch"))
        }
    }
}
