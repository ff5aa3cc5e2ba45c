import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// To-many key paths in fetches (see `TestStack.family` for the data): `ANY`, `ALL`,
/// `NONE`, collection operators, `SUBQUERY` and `IN`/`CONTAINS` — correlated subqueries
/// in the SQLite store, with the evaluator's answers.
@Suite struct SQLToManyTests {
    static let leaves = ["c2", "c3", "c4", "g1"]

    @Test(arguments: StoreKind.allCases)
    func anyAllAndNone(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        #expect(try stack.matching("ANY children.string == 'apple'") == ["p1"])
        #expect(try stack.matching("ANY children.string ==[cd] 'APPLE'") == ["p1", "p2"])
        #expect(try stack.matching("SOME children.int64 > 4") == ["c1", "p2"])
        // ALL of an empty collection holds; the nil title of c3 is left out.
        #expect(try stack.matching("ALL children.int64 < 3") == Self.leaves + ["p3"])
        #expect(try stack.matching("ALL children.string BEGINSWITH[c] 'a'") == Self.leaves + ["p3"])
        #expect(try stack.matching("NONE children.string BEGINSWITH[c] 'b'") == ["c1", "c2", "c3", "c4", "g1", "p2", "p3"])
        #expect(try stack.matching("NOT (ANY children.int64 >= 5)") == ["c2", "c3", "c4", "g1", "p1", "p3"])
    }

    @Test(arguments: StoreKind.allCases)
    func pathsThroughSeveralRelationships(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        #expect(try stack.matching("ANY children.children.string == 'grape'") == ["p1"])
        #expect(try stack.matching("ANY parent.children.string == 'Banana'") == ["c1", "c2", "c3"])
        #expect(try stack.matching("ANY children.parent.parent.string == nil") == [])
        #expect(try stack.matching("ANY children.parent.string == 'Alpha'") == ["p1"])
    }

    @Test(arguments: StoreKind.allCases)
    func collectionOperators(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        #expect(try stack.matching("children.@count == 3") == ["p1"])
        #expect(try stack.matching("children.@count > 0") == ["c1", "p1", "p2"])
        #expect(try stack.matching("children.string.@count == 2") == ["p1"])
        #expect(try stack.matching("children.@sum.int64 == 6") == ["p1"])
        #expect(try stack.matching("children.@sum.int64 == 0") == Self.leaves + ["p3"])
        #expect(try stack.matching("children.@avg.int64 == 2") == ["p1"])
        #expect(try stack.matching("children.@avg.int64 == nil") == Self.leaves + ["p3"])
        #expect(try stack.matching("children.@max.int64 == 5") == ["p2"])
        #expect(try stack.matching("children.@min.int64 == 1") == ["p1"])
        #expect(try stack.matching("children.@max.string == 'apple'") == ["p1"])
        #expect(try stack.matching("children.int64.@max >= 5") == ["c1", "p2"])
        #expect(try stack.matching("parent.children.@count == 3") == ["c1", "c2", "c3"])
        #expect(try stack.matching("children.@count == int64 - 7") == ["g1", "p1"])
    }

    @Test(arguments: StoreKind.allCases)
    func subqueries(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        #expect(try stack.matching("SUBQUERY(children, $c, $c.int64 >= 2).@count == 2") == ["p1"])
        #expect(try stack.matching("SUBQUERY(children, $c, $c.string CONTAINS[c] 'PP').@count > 0") == ["p1", "p2"])
        #expect(try stack.matching("SUBQUERY(children, $c, $c.parent.int64 == int64).@count == 1") == ["c1", "p2"])
        #expect(try stack.matching("SUBQUERY(children, $c, SUBQUERY($c.children, $g, $g.string == 'grape').@count == 1).@count == 1") == ["p1"])
        #expect(try stack.matching("SUBQUERY(children, $c, ANY $c.children.int64 == 7).@count > 0") == ["p1"])
    }

    @Test(arguments: StoreKind.allCases)
    func inAndContainsWithToManySides(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        #expect(try stack.matching("'apple' IN children.string") == ["p1"])
        #expect(try stack.matching("children.string CONTAINS 'Banana'") == ["p1"])
        #expect(try stack.matching("children.int64 CONTAINS 5") == ["p2"])
        #expect(try stack.matching("ANY children.int64 IN {2, 7}") == ["c1", "p1"])
        #expect(try stack.matching("ANY children.int64 BETWEEN {4, 8}") == ["c1", "p2"])
        let c1 = try #require(try stack.context.performAndWait { try stack.fetch("Sample", "key == 'c1'").first?.objectID })
        #expect(try stack.matching("children CONTAINS %@", c1) == ["p1"])
        #expect(try stack.matching("ANY children == %@", c1) == ["p1"])
        #expect(try stack.matching("%@ IN children", c1) == ["p1"])
        #expect(try stack.matching("parent IN %@", [c1]) == ["g1"])
    }

    /// Core Data refuses a to-many key compared directly ("to-many key not allowed here").
    @Test(arguments: StoreKind.allCases)
    func aToManyKeyComparedDirectlyThrows(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        for format in ["children.string == 'apple'", "children.int64 > 2", "children.string BEGINSWITH 'a'"] {
            let error = try stack.fetchError(format)
            #expect(error.code == .invalidFetchRequest || error.code == .invalidPredicate, "\(format)")
            if kind == .sqlite { #expect(error.code == .invalidFetchRequest, "\(format)") }
        }
    }

    /// Many-to-many relationships go through their join table.
    @Test(arguments: StoreKind.allCases)
    func manyToManyThroughTheJoinTable(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let swift = stack.insert("Tag", ["name": "swift"])
            let linux = stack.insert("Tag", ["name": "linux"])
            let a = stack.insert("Note", ["text": "a"])
            let b = stack.insert("Note", ["text": "b"])
            _ = stack.insert("Note", ["text": "c"])
            a.mutableSetValue(forKey: "tags").union([swift, linux])
            b.mutableSetValue(forKey: "tags").add(linux)
            try stack.context.save()
            stack.context.reset()
        }
        func texts(_ format: String) throws -> [String] {
            try stack.context.performAndWait { try stack.fetch("Note", format, sortedBy: "text").map { $0.value(forKey: "text") as? String ?? "" } }
        }
        #expect(try texts("ANY tags.name == 'swift'") == ["a"])
        #expect(try texts("tags.@count == 1") == ["b"])
        #expect(try texts("ALL tags.name == 'linux'") == ["b", "c"])
        #expect(try texts("ANY tags.notes.text == 'b'") == ["a", "b"])
        #expect(try texts("SUBQUERY(tags, $t, $t.notes.@count == 2).@count == 1") == ["a", "b"])
    }

    /// A to-many relationship into an inheritance hierarchy (one table for Person,
    /// Employee and Contractor).
    @Test(arguments: StoreKind.allCases)
    func toManyIntoAnInheritanceHierarchy(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.people(), kind: kind)
        try stack.context.performAndWait {
            let sales = stack.insert("Department", ["name": "sales"])
            let labs = stack.insert("Department", ["name": "labs"])
            _ = stack.insert("Department", ["name": "empty"])
            _ = stack.insert("Employee", ["name": "Ann", "salary": 10, "department": sales])
            _ = stack.insert("Contractor", ["name": "Bob", "rate": 2.5, "department": sales])
            _ = stack.insert("Contractor", ["name": "Cid", "rate": 4.0, "department": labs])
            try stack.context.save()
            stack.context.reset()
        }
        func departments(_ format: String) throws -> [String] {
            try stack.context.performAndWait { try stack.fetch("Department", format, sortedBy: "name").map { $0.value(forKey: "name") as? String ?? "" } }
        }
        #expect(try departments("ANY members.name BEGINSWITH[c] 'b'") == ["sales"])
        #expect(try departments("members.@count == 1") == ["labs"])
        #expect(try departments("ALL members.name != 'Ann'") == ["empty", "labs"])
        #expect(try departments("SUBQUERY(members, $m, $m.department.name == 'labs').@count == 1") == ["labs"])
        let people = try stack.context.performAndWait { try stack.fetch("Person", "department.members.@count == 2", sortedBy: "name").map { $0.value(forKey: "name") as? String ?? "" } }
        #expect(people == ["Ann", "Bob"])
    }
}
