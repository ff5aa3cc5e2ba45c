import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// ANY / ALL / NONE, to-many key paths, collection operators and SUBQUERY on real managed
/// objects, saved to each store and read back as faults, and on the in-memory store's rows.
///
/// The tree (title, order):
/// ```
/// Root ─┬─ A (1) ─┬─ A1 "x" (1)
///       │         └─ A2 "y" (2)
///       ├─ B (2)
///       └─ C (3) ─── C1 "x" (1)
/// ```
@Suite struct ToManyEvaluationTests {
    private typealias T = Tree

    /// The saved tree, with the context reset so that every object is read back from the store.
    private func tree(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            func item(_ title: String, _ order: Int64, _ parent: ManagedObject?) -> ManagedObject {
                let object = stack.insert("Item", ["title": title, "order": order])
                if let parent { object.setValue(parent, forKey: "parent") }
                return object
            }
            let root = item("Root", 0, nil)
            let a = item("A", 1, root)
            _ = item("A1 x", 1, a)
            _ = item("A2 y", 2, a)
            _ = item("B", 2, root)
            let c = item("C", 3, root)
            _ = item("C1 x", 1, c)
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    private func object(_ title: String, in stack: TestStack) throws -> ManagedObject {
        try #require(try stack.fetch("Item", "title == %@", title).first)
    }

    private func subquery(_ collection: String, _ predicate: CDPredicate) -> CDExpression {
        CDExpression(forSubquery: T.key(collection), usingIteratorVariable: "c", predicate: predicate)
    }

    private func count(_ expression: CDExpression) -> CDExpression { CDExpression(.member(expression, keyPath: "@count")) }

    // MARK: - Modifiers

    @Test(arguments: StoreKind.allCases) func anyAllAndNone(_ kind: StoreKind) throws {
        let stack = try tree(kind)
        try stack.context.performAndWait {
            let root = try object("Root", in: stack)
            let b = try object("B", in: stack)
            let childTitle = T.key("children.title")
            #expect(try holds(T.compare(childTitle, .equalTo, T.const("A"), .any), root))
            #expect(try !holds(T.compare(childTitle, .equalTo, T.const("Z"), .any), root))
            #expect(try holds(!T.compare(childTitle, .equalTo, T.const("Z"), .any), root), "NONE")
            #expect(try holds(T.compare(T.key("children.order"), .greaterThan, T.const(0), .all), root))
            #expect(try !holds(T.compare(T.key("children.order"), .greaterThan, T.const(1), .all), root))
            #expect(try holds(T.compare(childTitle, .beginsWith, T.const("c"), .any, .caseInsensitive), root))
            #expect(try holds(T.compare(childTitle, .in, T.const(["B", "Q"]), .any), root))
            // An empty collection: ANY is false, ALL is true.
            #expect(try !holds(T.compare(childTitle, .equalTo, T.const("A"), .any), b))
            #expect(try holds(T.compare(childTitle, .equalTo, T.const("nope"), .all), b))
            // Through two to-many steps the values are flattened: x, y, x.
            let grandchildTitle = T.key("children.children.title")
            #expect(try holds(T.compare(grandchildTitle, .endsWith, T.const("y"), .any), root))
            #expect(try !holds(T.compare(grandchildTitle, .endsWith, T.const("x"), .all), root))
            #expect(try holds(T.compare(grandchildTitle, .like, T.const("?? ?"), .all), root))
            // To-one then to-many.
            let a = try object("A", in: stack)
            #expect(try holds(T.compare(T.key("parent.children.title"), .equalTo, T.const("C"), .any), a))
            #expect(try !holds(T.compare(T.key("parent.children.title"), .equalTo, T.const("C"), .any), root), "no parent")
        }
    }

    @Test func aModifierOnAValueThatIsNotACollectionIsAnError() {
        #expect(failsToEvaluate(T.compare(T.key("title"), .equalTo, T.const("x"), .any), ["title": "x"]))
        #expect(failsToEvaluate(T.compare(T.key("n"), .equalTo, T.const(1), .all), ["n": 1]))
        #expect(!Tree.compare(T.key("missing"), .equalTo, T.const(1), .any).evaluate(with: [String: Any]()))
        #expect(Tree.compare(T.key("missing"), .equalTo, T.const(1), .all).evaluate(with: [String: Any]()))
    }

    // MARK: - Collection operators

    @Test(arguments: StoreKind.allCases) func collectionOperators(_ kind: StoreKind) throws {
        let stack = try tree(kind)
        try stack.context.performAndWait {
            let root = try object("Root", in: stack)
            #expect(try same(valueOf(T.key("children.@count"), root), 3))
            #expect(try same(valueOf(T.key("children.@sum.order"), root), 6))
            #expect(try valueOf(T.key("children.@sum.order"), root) is Int64, "integers sum to an integer")
            #expect(try same(valueOf(T.key("children.@avg.order"), root), 2.0))
            #expect(try same(valueOf(T.key("children.@min.order"), root), 1))
            #expect(try same(valueOf(T.key("children.@max.title"), root), "C"))
            #expect(try same(valueOf(T.key("children.children.@count"), root), 3))
            #expect(try same(valueOf(T.key("children.@sum.children.order"), root), 4), "1 + 2 + 1")
            let distinct = try #require(try valueOf(T.key("children.children.@distinctUnionOfObjects.order"), root) as? [Any?])
            #expect(distinct.count == 2)
            let all = try #require(try valueOf(T.key("children.@unionOfObjects.children.order"), root) as? [Any?])
            #expect(all.count == 3)
            let b = try object("B", in: stack)
            #expect(try same(valueOf(T.key("children.@count"), b), 0))
            #expect(try same(valueOf(T.key("children.@sum.order"), b), 0))
            #expect(try valueOf(T.key("children.@avg.order"), b) == nil)
            #expect(try valueOf(T.key("children.@max.order"), b) == nil)
            #expect(try holds(T.compare(T.key("children.@count"), .equalTo, T.const(3)), root))
            #expect(try holds(T.compare(T.key("children.@sum.order"), .greaterThan, T.key("children.@count")), root))
            // A nil to-one on the way gives nil, not 0.
            #expect(try valueOf(T.key("parent.children.@count"), root) == nil)
            #expect(try same(valueOf(T.key("parent.children.@count"), b), 3))
        }
    }

    // MARK: - SUBQUERY

    @Test(arguments: StoreKind.allCases) func subqueries(_ kind: StoreKind) throws {
        let stack = try tree(kind)
        try stack.context.performAndWait {
            let root = try object("Root", in: stack)
            let variable = CDExpression.variable("c")
            let late = subquery("children", CDExpression(.member(variable, keyPath: "order")).greaterThanOrEqualTo(2))
            #expect(try holds(count(late).equalTo(2), root))
            let withX = subquery("children", T.compare(CDExpression(.member(variable, keyPath: "children.title")), .endsWith, T.const("x"), .any))
            #expect(try holds(count(withX).equalTo(2), root))
            let titles = try #require(try valueOf(CDExpression(.member(withX, keyPath: "title")), root) as? [Any?])
            #expect(Set(titles.compactMap { $0 as? String }) == ["A", "C"])
            // Nested: children having a grandchild titled "A2 y".
            let inner = CDExpression(forSubquery: CDExpression(.member(variable, keyPath: "children")), usingIteratorVariable: "g",
                                     predicate: CDExpression(.member(.variable("g"), keyPath: "title")).equalTo("A2 y"))
            let outer = subquery("children", count(inner).greaterThan(0))
            #expect(try holds(count(outer).equalTo(1), root))
            // SELF is still the evaluated object inside the subquery.
            let selfInside = subquery("children", CDExpression(.member(variable, keyPath: "parent")).equalTo(.evaluatedObject))
            #expect(try holds(count(selfInside).equalTo(3), root))
            // The iteration variable is unbound outside.
            #expect(failsToEvaluate(variable.equalTo(1), root))
        }
    }

    // MARK: - Objects in collections

    @Test(arguments: StoreKind.allCases) func objectsInToManyRelationships(_ kind: StoreKind) throws {
        let stack = try tree(kind)
        try stack.context.performAndWait {
            let root = try object("Root", in: stack)
            let a = try object("A", in: stack)
            #expect(try holds(T.compare(.evaluatedObject, .in, T.key("parent.children")), a))
            #expect(try !holds(T.compare(.evaluatedObject, .in, T.key("parent.children")), root))
            #expect(try holds(T.compare(T.key("children"), .contains, T.const(.objectID(a.objectID))), root))
            #expect(try !holds(T.compare(T.key("children"), .equalTo, .evaluatedObject, .any), root))
            #expect(try holds(T.compare(T.key("children.parent"), .equalTo, .evaluatedObject, .all), root))
        }
    }

    // MARK: - The in-memory store's own rows

    @Test func theInMemoryStoreEvaluatesToManyPredicatesOnItsRows() throws {
        let stack = try tree(.inMemory)
        try stack.context.performAndWait { () throws in
            // Straight to the store: the fetch request's own key-path check is not under test.
            let store = try #require(stack.coordinator.persistentStores.first?.backend as? InMemoryStore)
            func titles(_ predicate: CDPredicate) throws -> [String] {
                var query = try StoreFetch(FetchRequest<ManagedObject>(entityName: "Item"), model: stack.model)
                query.predicate = predicate
                query.sortDescriptors = [CDSortDescriptor(key: "title")]
                return try store.fetch(query).map { stack.context.object(with: $0.id).value(forKey: "title") as? String ?? "?" }
            }
            #expect(try titles(T.compare(T.key("children.title"), .equalTo, T.const("A"), .any)) == ["Root"])
            #expect(try titles(T.key("children.@count").equalTo(0)) == ["A1 x", "A2 y", "B", "C1 x"])
            #expect(try titles(T.key("children.@sum.order").equalTo(3)) == ["A"])
            let late = subquery("children", CDExpression(.member(.variable("c"), keyPath: "order")).greaterThanOrEqualTo(2))
            #expect(try titles(count(late).greaterThan(0)) == ["A", "Root"])
            #expect(try titles(T.compare(T.key("parent.parent.title"), .equalTo, T.const("Root"))) == ["A1 x", "A2 y", "C1 x"])
        }
    }
}
