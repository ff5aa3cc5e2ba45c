import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `relationshipKeyPathsForPrefetching`: one store read per key-path step, then walking
/// the relationships and reading the related objects needs none (counted statements).
@Suite struct PrefetchingTests {
    /// Three roots r0…r2, each with three children (c<r><i>), each with two grandchildren.
    private func tree(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            for r in 0..<3 {
                let root = stack.insert("Item", ["title": "r\(r)", "order": Int64(r)])
                for c in 0..<3 {
                    let child = stack.insert("Item", ["title": "c\(r)\(c)", "parent": root])
                    for g in 0..<2 { _ = stack.insert("Item", ["title": "g\(r)\(c)\(g)", "parent": child]) }
                }
            }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    private func roots(_ prefetching: [String]?) throws -> FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try CDPredicate(format: "parent == nil")
        request.sortDescriptors = [CDSortDescriptor(key: "order")]
        request.relationshipKeyPathsForPrefetching = prefetching
        return request
    }

    /// Every title under the roots, walking children and grandchildren (but not the
    /// grandchildren's own, unprefetched, children).
    private func walk(_ roots: [ManagedObject]) -> [String] {
        func titles(_ object: ManagedObject, depth: Int) -> [String] {
            let title = object.value(forKey: "title") as! String
            guard depth < 2 else { return [title] }
            let children = (object.value(forKey: "children") as? Set<ManagedObject> ?? [])
                .sorted { ($0.value(forKey: "title") as! String) < ($1.value(forKey: "title") as! String) }
            return [title] + children.flatMap { titles($0, depth: depth + 1) }
        }
        return roots.flatMap { titles($0, depth: 0) }
    }

    @Test(arguments: StoreKind.allCases)
    func prefetchedToManyPathsNeedNoMoreStatements(kind: StoreKind) throws {
        let stack = try tree(kind)
        try stack.context.performAndWait {
            let expected = try walk(stack.context.fetch(roots(nil)))
            #expect(expected.count == 3 + 9 + 18)
            stack.context.reset()

            let before = stack.coordinator.executedStatementCount
            var prefetched: [ManagedObject] = []
            let sql = try stack.capturingSQL { prefetched = try stack.context.fetch(roots(["children", "children.children"])) }
            #expect(stack.coordinator.executedStatementCount - before == 1 + 1 + 2, "the fetch, then one read per key-path step")
            if kind == .sqlite {
                #expect(sql.count == 4, "\(sql)")
                #expect(sql.first?.contains("FROM ZITEM t0 WHERE (t0.ZPARENT IS NULL)") == true, "the roots first: \(sql)")
                #expect(sql.dropFirst().allSatisfy { $0.contains("FROM ZITEM t0 WHERE t0.ZPARENT IN (SELECT value FROM json_each(?))") },
                        "then the children of all the parents at hand, in one read each: \(sql)")
            }
            let afterFetch = stack.coordinator.executedStatementCount
            var walked: [String] = []
            let walkSQL = stack.capturingSQL { walked = walk(prefetched) }
            #expect(walked == expected)
            // Each fault fired from the row cache first checks for other connections' commits.
            #expect(walkSQL.allSatisfy { $0 == "PRAGMA data_version" }, "walking prefetched relationships reads no row: \(walkSQL)")
            #expect(stack.coordinator.executedStatementCount == afterFetch, "nor any in-memory read")

            stack.context.reset()
            let plain = try stack.context.fetch(roots(nil))
            let plainStart = stack.coordinator.executedStatementCount
            #expect(walk(plain) == expected)
            #expect(stack.coordinator.executedStatementCount - plainStart >= 3 + 9, "one read per to-many relationship without prefetching")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func prefetchedToOneObjectsFireWithoutStatements(kind: StoreKind) throws {
        let stack = try tree(kind)
        try stack.context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = try CDPredicate(format: "parent.parent != nil")
            request.relationshipKeyPathsForPrefetching = ["parent.parent"]
            let grandchildren = try stack.context.fetch(request)
            #expect(grandchildren.count == 18)
            let start = stack.coordinator.executedStatementCount
            let rootTitles = Set(grandchildren.compactMap { ($0.value(forKey: "parent") as? ManagedObject)?.value(forKey: "parent") as? ManagedObject }
                .map { $0.value(forKey: "title") as! String })
            #expect(rootTitles == ["r0", "r1", "r2"])
            #expect(stack.coordinator.executedStatementCount == start)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unknownPrefetchingKeyPathsThrow(kind: StoreKind) throws {
        let stack = try tree(kind)
        stack.context.performAndWait {
            for path in ["nope", "title", "children.title"] {
                #expect(throws: CoreDataError.self) { try stack.context.fetch(roots([path])) }
            }
        }
    }

    @Test func prefetchedContentsAreNotServedAfterASave() throws {
        let stack = try tree(.sqlite)
        try stack.context.performAndWait {
            let other = stack.newContext()
            _ = try stack.context.fetch(roots(["children"]))
            // Before anyone reads the prefetched contents, another context moves a child.
            try other.performAndWait {
                let r0 = try other.fetch(roots(nil))[0]
                let r1 = try other.fetch(roots(nil))[1]
                let moved = (r0.value(forKey: "children") as! Set<ManagedObject>).first!
                moved.setValue(r1, forKey: "parent")
                try other.save()
            }
            let r0 = try stack.context.fetch(roots(nil))[0]
            #expect((r0.value(forKey: "children") as! Set<ManagedObject>).count == 2)
        }
    }
}
