import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// The key-path errors of `ResolvedKeyPath` are what a fetch reports, the same from the
/// SQLite and the in-memory store.
@Suite struct ResolvedKeyPathFetchTests {
    private static func stack(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insertItemTree()
            try stack.context.save()
        }
        return stack
    }

    /// The error a fetch of items with `configure` applied throws.
    private static func fetchError(_ stack: TestStack, _ configure: (FetchRequest<ManagedObject>) throws -> Void) throws -> CoreDataError {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        try configure(request)
        return try stack.context.performAndWait {
            try #require(throws: CoreDataError.self) { try stack.context.fetch(request) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func predicateErrorsAreTheSameOnBothStores(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        let cases: [(String, CoreDataError.Code, String)] = [
            ("nosuch == 1", .invalidFetchRequest, "Key path 'nosuch': entity 'Item' has no property 'nosuch'."),
            ("parent.title.order == 1", .invalidFetchRequest, "Key path 'parent.title.order': 'order' follows the attribute 'Item.title', a value that has no keys."),
            ("title.@count == 1", .invalidPredicate, "Key path 'title.@count': the collection operator @count applies to collections, not to the attribute 'Item.title'."),
            ("children.title == 'x'", .invalidFetchRequest, "children.title == \"x\": the to-many key 'children.title' is not allowed here; use ANY, ALL, NONE, IN, CONTAINS, a collection operator or SUBQUERY."),
        ]
        for (format, code, message) in cases {
            let error = try Self.fetchError(stack) { $0.predicate = try CDPredicate(format: format) }
            #expect(error.code == code, "\(format)")
            #expect(error.message == message, "\(format)")
        }
        // The parser refuses an unknown operator; a predicate built in code meets the resolver.
        let unknown = try Self.fetchError(stack) { $0.predicate = CDExpression.keyPath("children.@median").equalTo(1) }
        #expect(unknown.code == .invalidPredicate)
        #expect(unknown.message == "Key path 'children.@median': unknown collection operator @median.")
    }

    @Test(arguments: StoreKind.allCases)
    func sortAndPrefetchErrorsAreTheSameOnBothStores(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        let sort = try Self.fetchError(stack) { $0.sortDescriptors = [CDSortDescriptor(key: "children.title", ascending: true)] }
        #expect(sort.code == .invalidFetchRequest && sort.key == "children.title")
        #expect(sort.message == "The to-many key 'children.title' is not allowed here: a fetch cannot sort by a to-many relationship.")
        let prefetch = try Self.fetchError(stack) { $0.relationshipKeyPathsForPrefetching = ["children.title"] }
        #expect(prefetch.code == .invalidFetchRequest)
        #expect(prefetch.message == "Key path 'children.title': 'title' is not a relationship of Item, so objects cannot be prefetched along it.")
    }

    @Test(arguments: StoreKind.allCases)
    func dictionaryFetchErrorsAreTheSameOnBothStores(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        for path in ["children.title", "children.@count"] {
            let request = FetchRequest<NSDictionary>(entityName: "Item")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = [path]
            let error = try stack.context.performAndWait {
                try #require(throws: CoreDataError.self) { try stack.context.fetchDictionaries(request) }
            }
            #expect(error.code == .invalidFetchRequest, "\(path)")
            #expect(error.message == "The to-many key '\(path)' is not allowed here: a dictionary fetch can fetch or group by attributes and to-one relationships only.")
        }
    }

    /// Paths that resolve give the same rows from both stores.
    @Test(arguments: StoreKind.allCases)
    func resolvedPathsFetchOnBothStores(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        func titles(_ format: String) throws -> [String] {
            try stack.context.performAndWait {
                try stack.fetch("Item", format, sortedBy: "title").map { $0.value(forKey: "title") as? String ?? "" }
            }
        }
        #expect(try titles("children.@count == 1") == ["child", "root"])
        #expect(try titles("parent.parent.title == 'root'") == ["grandchild"])
        #expect(try titles("ANY children.title == 'grandchild'") == ["child"])
    }
}
