import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Windows of fetches with unsaved changes stay in the store (`PendingFetch`): the same
/// results as merging every match in memory, from far fewer rows.
@Suite struct PendingWindowTests {
    private static let formats: [String?] = [nil, "int64 >= 4", "int64 < 7 OR group == 'a'", "group == 'b'", "int64 >= 3 AND group != 'c'", "key BEGINSWITH 's1'"]
    /// Sorts the store orders as memory does (numbers, strings with nil, several keys) and
    /// sorts memory must do itself (decimals).
    private static let sorts: [[String]] = [[], ["int64"], ["-int64"], ["group", "-int64"], ["double"], ["-key"], ["decimal"], ["-group", "decimal"]]

    @Test(arguments: StoreKind.allCases)
    func windowsWithPendingChangesMatchABruteForceMerge(kind: StoreKind) throws {
        var random = SeededRandom.fromEnvironment(for: "windowsWithPendingChangesMatchABruteForceMerge \(kind)")
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            for i in 0..<60 { _ = stack.insert("Sample", Self.randomValues(key: "s\(i)", &random)) }
            try stack.context.save()
            stack.context.reset()
            for round in 0..<100 {
                stack.context.rollback()
                let saved = try stack.context.fetch(stack.request(sortedBy: ["key"]))
                for object in saved.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                    stack.context.delete(object)
                }
                for object in saved.shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random)) where !object.isDeleted {
                    for (key, value) in Self.randomValues(key: nil, &random) where Bool.random(using: &random) {
                        object.setValue(value, forKey: key)
                    }
                }
                var created: [ManagedObject] = []
                for index in 0..<Int.random(in: 0...4, using: &random) {
                    created.append(stack.insert("Sample", Self.randomValues(key: "n\(round).\(index)", &random)))
                }
                if let doomed = created.randomElement(using: &random), Bool.random(using: &random) { stack.context.delete(doomed) }
                for _ in 0..<6 {
                    let request = try stack.request(Self.formats.randomElement(using: &random)!, sortedBy: Self.sorts.randomElement(using: &random)!)
                    request.fetchOffset = Int.random(in: 0...5, using: &random)
                    request.fetchLimit = Int.random(in: 0...5, using: &random)
                    request.includesPropertyValues = Bool.random(using: &random)
                    let expected = try Self.bruteForce(request, saved: saved, created: created, in: stack.context).map(\.objectID)
                    let label = "round \(round): \(request.predicate?.predicateFormat ?? "all") by \(request.sortDescriptors ?? []) offset \(request.fetchOffset) limit \(request.fetchLimit)"
                    #expect(try stack.context.fetch(request).map(\.objectID) == expected, "\(label)")
                    #expect(try stack.context.count(for: request) == expected.count, "\(label)")
                    #expect(try stack.context.fetchResults(request).map(\.objectID) == expected, "\(label)")
                    let ids = FetchRequest<ManagedObjectID>(entityName: "Sample")
                    ids.resultType = .managedObjectIDResultType
                    (ids.predicate, ids.sortDescriptors, ids.fetchOffset, ids.fetchLimit) = (request.predicate, request.sortDescriptors, request.fetchOffset, request.fetchLimit)
                    #expect(try stack.context.fetch(ids) == expected, "\(label)")
                }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLimitedFetchWithPendingChangesReadsOnlyItsWindow(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            for i in 0..<2_000 { _ = stack.insert("Sample", ["key": "s\(i)", "int64": Int64(i)]) }
            try stack.context.save()
            stack.context.reset()
            _ = stack.insert("Sample", ["key": "new", "int64": Int64(1_000)])
            for (sort, expected) in [([String](), "s0"), (["-int64"], "s1999"), (["key"], "new")] {
                let request = try stack.request(sortedBy: sort)
                request.fetchLimit = 1
                let before = stack.coordinator.steppedRowCount
                #expect(try stack.context.fetch(request).map { $0.value(forKey: "key") as? String } == [expected], "\(sort)")
                #expect(stack.coordinator.steppedRowCount - before <= 2, "\(sort)")
            }
            // A changed object adds one row to read: its stored row may fall out.
            let changed = try stack.context.fetch(stack.request("key == 's5'"))[0]
            changed.setValue(Int64(-1), forKey: "int64")
            let request = try stack.request("int64 < 100", sortedBy: ["int64"])
            request.fetchOffset = 2
            request.fetchLimit = 3
            var before = stack.coordinator.steppedRowCount
            #expect(try stack.keys(request) == ["s1", "s2", "s3"])
            #expect(stack.coordinator.steppedRowCount - before <= 2 + 3 + 1)
            // A count reads one row: the store counts its clean matches.
            before = stack.coordinator.steppedRowCount
            #expect(try stack.context.count(for: request) == 3)
            request.fetchLimit = 0
            #expect(try stack.context.count(for: request) == 98)
            #expect(stack.coordinator.steppedRowCount - before <= 2)
        }
    }

    /// A sort through a relationship orders stored rows by the related rows' stored values;
    /// with the related object changed in memory, the store cannot window it.
    @Test(arguments: StoreKind.allCases)
    func aSortThroughAChangedRelationshipIsMergedInMemory(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            let first = stack.insert("Sample", ["key": "p1", "int64": Int64(1)])
            let second = stack.insert("Sample", ["key": "p2", "int64": Int64(2)])
            _ = stack.insert("Sample", ["key": "c1", "parent": first])
            _ = stack.insert("Sample", ["key": "c2", "parent": second])
            try stack.context.save()
            first.setValue(Int64(3), forKey: "int64")
            let request = try stack.request("parent != nil", sortedBy: ["parent.int64"])
            request.fetchLimit = 1
            #expect(try stack.keys(request) == ["c2"])
            request.fetchOffset = 1
            #expect(try stack.keys(request) == ["c1"])
        }
    }

    /// The answer every window must equal: every object the context holds (saved and not
    /// deleted, or new) that matches in memory, sorted with ties by primary key, new
    /// objects last in creation order; unsorted, in the store's order, each changed object
    /// in its stored row's place, the other pending matches after them.
    private static func bruteForce(_ request: FetchRequest<ManagedObject>, saved: [ManagedObject], created: [ManagedObject], in context: ManagedObjectContext) throws -> [ManagedObject] {
        let matches = { (object: ManagedObject) throws -> Bool in try request.predicate?.evaluateThrowing(with: object) ?? true }
        let creation = Dictionary(uniqueKeysWithValues: created.enumerated().map { (ObjectIdentifier($1), $0) })
        let tieOrder = { (object: ManagedObject) -> (Int, Int64) in
            object.objectID.primaryKey.map { (0, $0) } ?? (1, Int64(creation[ObjectIdentifier(object)]!))
        }
        let live = try (saved + created).filter { try !$0.isDeleted && matches($0) }.sorted { tieOrder($0) < tieOrder($1) }
        var result: [ManagedObject]
        if let sorts = request.sortDescriptors, !sorts.isEmpty {
            result = CDSortDescriptor.sort(live, by: sorts)
        } else {
            let storeOrder = FetchRequest<ManagedObject>(entityName: "Sample")
            storeOrder.predicate = request.predicate
            storeOrder.includesPendingChanges = false
            let stored = try context.fetch(storeOrder)
            let inStore = Set(stored.map(ObjectIdentifier.init))
            result = try stored.filter { try !$0.isDeleted && matches($0) } + live.filter { !inStore.contains(ObjectIdentifier($0)) }
        }
        result = Array(result.dropFirst(request.fetchOffset))
        return request.fetchLimit > 0 ? Array(result.prefix(request.fetchLimit)) : result
    }

    /// Values with many ties and nils; `key` only when given.
    private static func randomValues(key: String?, _ random: inout SeededRandom) -> [String: Any?] {
        var values: [String: Any?] = [
            "int64": Int64.random(in: 0..<10, using: &random),
            "group": ["a", "b", "c", nil].randomElement(using: &random)!,
            "double": Double(Int.random(in: 0..<5, using: &random)) / 2,
            "decimal": Decimal(Int.random(in: 0..<6, using: &random)) / 4,
        ]
        if let key { values["key"] = key }
        return values
    }
}
