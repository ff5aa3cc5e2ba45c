import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Expression kinds beyond key paths: variables, aggregates, index access, TERNARY, set
/// expressions, and `expressionValue(with:context:)`.
@Suite struct ExpressionEvaluationTests {
    private typealias T = Tree
    private let row: [String: Any] = [
        "n": 5, "list": [10, 20, 30], "lookup": ["a": 1, "b": 2], "set": Set([1, 2, 3]),
        "points": [["x": 1], ["x": 2], ["y": 3]], "orderedSet": NSOrderedSet(array: ["a", "b", "c"]),
    ]

    // MARK: - Variables

    @Test func variablesComeFromSubstitutionOrAreAnErrorNamingThem() throws {
        let predicate = T.key("n").compare(.lessThan, .variable("limit"))
        #expect(try holds(predicate, row, variables: ["limit": 10]))
        #expect(try !holds(predicate, row, variables: ["limit": 5]))
        #expect(try !holds(predicate, row, variables: ["limit": nil]), "bound to nil, which orders with nothing")
        let error = try #require(throws: CoreDataError.self) { try predicate.evaluateThrowing(with: row) }
        #expect(error.code == .invalidPredicate)
        #expect(error.key == "limit")
        #expect(error.message.contains("$limit"))
        #expect(try same(valueOf(.variable("v"), variables: ["v": "x"]), "x"))
    }

    // MARK: - Aggregates and index access

    @Test func aggregatesEvaluateToArrays() throws {
        let values = try #require(try valueOf(T.list(T.const(1), T.key("n"), T.const(nil), T.const("s")), row) as? [Any?])
        #expect(values.count == 4)
        #expect(same(values[0], 1) && same(values[1], 5) && values[2] == nil && same(values[3], "s"))
        let nested = try #require(try valueOf(T.const([1, [2, 3]])) as? [Any?])
        #expect((nested[1] as? [Any?])?.count == 2)
    }

    @Test func indexAccessOnArrays() throws {
        func at(_ index: CDExpression.Index, _ base: CDExpression = T.key("list")) throws -> Any? {
            try valueOf(CDExpression(.index(base, index)), row)
        }
        #expect(try same(at(.first), 10))
        #expect(try same(at(.last), 30))
        #expect(try same(at(.size), 3))
        #expect(try same(at(.expression(T.const(1))), 20))
        #expect(try same(at(.expression(T.const(2.0))), 30), "a whole double is an index")
        #expect(try at(.expression(T.const(3))) == nil, "out of range")
        #expect(try at(.expression(T.const(-1))) == nil)
        #expect(try at(.expression(T.const(.int64(.max)))) == nil)
        #expect(try at(.first, T.const([])) == nil)
        #expect(try at(.first, T.key("missing")) == nil)
        #expect(try same(at(.expression(T.const(0)), T.list(T.const("a"))), "a"))
        #expect(throws: CoreDataError.self) { try at(.expression(T.const(1.5))) }
        #expect(throws: CoreDataError.self) { try at(.expression(T.const(.date(Date())))) }
        #expect(throws: CoreDataError.self) { try at(.expression(T.const("x"))) }
        #expect(throws: CoreDataError.self) { try at(.first, T.key("n")) }
    }

    @Test func indexAccessOnDictionariesAndSets() throws {
        func at(_ index: CDExpression.Index, _ base: String) throws -> Any? {
            try valueOf(CDExpression(.index(T.key(base), index)), row)
        }
        #expect(try same(at(.expression(T.const("b")), "lookup"), 2))
        #expect(try at(.expression(T.const("zz")), "lookup") == nil)
        #expect(try same(at(.size, "lookup"), 2))
        #expect(throws: CoreDataError.self) { try at(.first, "lookup") }
        #expect(try same(at(.size, "set"), 3))
        #expect(try same(at(.last, "orderedSet"), "c"), "an NSOrderedSet is ordered")
        #expect(try same(at(.expression(T.const(0)), "orderedSet"), "a"))
        let error = try #require(throws: CoreDataError.self) { try at(.first, "set") }
        #expect(error.message.contains("ordered"))
    }

    // MARK: - TERNARY, members, set expressions

    @Test func conditionals() throws {
        let ternary = CDExpression(forConditional: T.key("n").greaterThan(3), trueExpression: T.const("big"), falseExpression: T.key("nothing.here"))
        #expect(try same(valueOf(ternary, row), "big"))
        #expect(try holds(ternary.equalTo("big"), row))
        // Only the chosen branch is evaluated: the other may fail.
        let failing = CDExpression(forConditional: T.key("n").lessThan(3), trueExpression: .variable("unbound"), falseExpression: T.const(0))
        #expect(try same(valueOf(failing, row), 0))
    }

    @Test func membersOfComputedValues() throws {
        let xs = try #require(try valueOf(CDExpression(.member(T.key("points"), keyPath: "x")), row) as? [Any?])
        #expect(xs.count == 2, "nil values are dropped")
        #expect(try same(valueOf(CDExpression(.member(T.list(T.key("lookup")), keyPath: "@count")), row), 1))
        #expect(try same(valueOf(CDExpression(.member(T.key("lookup"), keyPath: "@count")), row), 2))
    }

    @Test func unionIntersectAndMinus() throws {
        func count(_ expression: CDExpression) throws -> Int? { (try valueOf(expression, row) as? [Any?])?.count }
        let left = T.const([1, 2, 2, 3])
        #expect(try count(CDExpression(forUnionSet: left, with: T.const([3, 4.0]))) == 4)
        #expect(try count(CDExpression(forUnionSet: left, with: T.const([3.0, 4]))) == 4, "3 and 3.0 are one value")
        #expect(try count(CDExpression(forIntersectSet: left, with: T.const([2, 3, 9]))) == 2)
        #expect(try count(CDExpression(forMinusSet: left, with: T.const([2]))) == 2)
        #expect(try count(CDExpression(forMinusSet: left, with: T.key("missing"))) == 3)
        #expect(try count(CDExpression(forUnionSet: T.key("missing"), with: T.key("set"))) == 3)
        let union = CDExpression(forUnionSet: T.key("list"), with: T.key("set"))
        #expect(try holds(T.compare(T.const(20), .in, union), row))
        #expect(try holds(T.compare(union, .contains, T.const(3)), row))
        #expect(throws: CoreDataError.self) { try valueOf(CDExpression(forUnionSet: T.key("n"), with: left), row) }
    }

    @Test func expressionValuesArePlainSwiftValues() throws {
        #expect(try valueOf(T.const(nil)) == nil)
        #expect(try valueOf(T.const("s")) as? String == "s")
        #expect(try valueOf(T.const(2)) as? Int64 == 2)
        #expect(try valueOf(T.const([1, "a"])) is [Any?])
        #expect(try valueOf(.evaluatedObject, row) is [String: Any])
        #expect(throws: CoreDataError.self) { try valueOf(CDExpression(.anyKey), row) }
    }

    // MARK: - Ordered and unordered relationships

    /// A folder whose ordered notes are one, two, three; the note "two" is tagged.
    private func folder(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let notes = ["one", "two", "three"].map { stack.insert("Note", ["text": $0]) }
            let folder = stack.insert("Folder", ["name": "F"])
            folder.setValue(notes, forKey: "notes")
            let tag = stack.insert("Tag", ["name": "work"])
            tag.setValue(Set([notes[1], notes[2]]), forKey: "notes")
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    @Test(arguments: StoreKind.allCases) func indexAccessOnOrderedRelationships(_ kind: StoreKind) throws {
        let stack = try folder(kind)
        try stack.context.performAndWait {
            let folder = try #require(try stack.fetch("Folder").first)
            func text(_ index: CDExpression.Index) throws -> Any? {
                try valueOf(CDExpression(.member(CDExpression(.index(T.key("notes"), index)), keyPath: "text")), folder)
            }
            #expect(try same(text(.first), "one"))
            #expect(try same(text(.last), "three"))
            #expect(try same(text(.expression(T.const(1))), "two"))
            #expect(try text(.expression(T.const(3))) == nil)
            #expect(try same(valueOf(CDExpression(.index(T.key("notes"), .size)), folder), 3))
            #expect(try same(valueOf(CDExpression(.index(T.key("notes.text"), .last)), folder), "three"), "a to-many path through an ordered relationship stays ordered")
            let tag = try #require(try stack.fetch("Tag").first)
            #expect(try same(valueOf(CDExpression(.index(T.key("notes"), .size)), tag), 2))
            #expect(throws: CoreDataError.self) { try valueOf(CDExpression(.index(T.key("notes"), .first)), tag) }
            #expect(try holds(T.compare(T.key("notes.tags.name"), .equalTo, T.const("work"), .any), folder))
            #expect(try holds(T.key("notes.tags.@count").equalTo(2), folder))
            // A relationship's live views are collections too.
            let views: [String: Any] = ["ordered": folder.mutableOrderedSetValue(forKey: "notes"), "set": tag.mutableSetValue(forKey: "notes")]
            #expect(try same(valueOf(CDExpression(.member(CDExpression(.index(T.key("ordered"), .last)), keyPath: "text")), views), "three"))
            #expect(try holds(T.key("set.@count").equalTo(2), views))
            #expect(try !holds(T.compare(T.key("set.text"), .equalTo, T.const("two"), .all), views))
            #expect(try holds(T.compare(T.key("set.text"), .beginsWith, T.const("t"), .all), views))
        }
    }
}
