import Foundation
import Testing
@testable import OpenCoreData

/// The trees the parser builds for each construct of the format language.
@Suite struct PredicateGrammarTests {
    // MARK: - Helpers

    private func parse(_ format: String, _ arguments: Any?...) throws -> CDPredicate {
        try CDPredicate(format: format, argumentArray: arguments)
    }

    private func comparison(_ format: String, _ arguments: Any?...) throws -> CDComparisonPredicate {
        let predicate = try CDPredicate(format: format, argumentArray: arguments)
        return try #require(predicate as? CDComparisonPredicate, "\(format) parsed to \(predicate)")
    }

    /// The left expression of `<expression> == 0`.
    private func expression(_ text: String, _ arguments: Any?...) throws -> CDExpression {
        let predicate = try CDPredicate(format: text + " == 0", argumentArray: arguments)
        return try #require(predicate as? CDComparisonPredicate, "\(text) parsed to \(predicate)").leftExpression
    }

    private func parseError(_ format: String, _ arguments: Any?...) throws -> CoreDataError {
        let error = try #require(throws: CoreDataError.self) { try CDPredicate(format: format, argumentArray: arguments) }
        #expect(error.code == .invalidPredicate)
        #expect(error.offset != nil, "\(format): \(error.message)")
        return error
    }

    private func function(_ name: String, _ arguments: CDExpression...) -> CDExpression {
        CDExpression(forFunction: name, arguments: arguments)
    }

    // MARK: - Operators and options

    @Test(arguments: [
        ("LIKE", CDComparisonPredicate.Operator.like), ("like", .like), ("MATCHES", .matches),
        ("BeginsWith", .beginsWith), ("ENDSWITH", .endsWith), ("CONTAINS", .contains), ("in", .in),
        ("BETWEEN", .between),
    ])
    func wordOperators(word: String, type: CDComparisonPredicate.Operator) throws {
        let parsed = try comparison("a \(word) %@", [1, 2])
        #expect(parsed.predicateOperatorType == type)
        #expect(parsed.rightExpression == .constant(.array([1, 2])))
    }

    private static let optionSpellings: [(String, CDComparisonPredicate.Options)] = [
        ("[c]", .caseInsensitive), ("[C]", .caseInsensitive),
        ("[d]", .diacriticInsensitive), ("[cd]", [.caseInsensitive, .diacriticInsensitive]),
        ("[DC]", [.caseInsensitive, .diacriticInsensitive]), ("[n]", .normalized),
        ("[cdn]", [.caseInsensitive, .diacriticInsensitive, .normalized]),
    ]

    @Test(arguments: optionSpellings)
    func optionsInAnyCaseAndOrder(flags: String, options: CDComparisonPredicate.Options) throws {
        for op in ["BEGINSWITH", "==", "!=", "LIKE", "IN", "CONTAINS", "MATCHES", "ENDSWITH"] {
            #expect(try comparison("name \(op)\(flags) 'x'").options == options, "\(op)\(flags)")
            #expect(try comparison("name \(op) \(flags) 'x'").options == options, "\(op) \(flags)")
        }
    }

    @Test func badOptionsAreErrors() throws {
        #expect(try parseError("a ==[x] 'b'").message.contains("unknown comparison option 'x'"))
        #expect(try parseError("a ==[cc] 'b'").message.contains("repeated"))
        #expect(try parseError("a ==[] 'b'").offset == 5)
        #expect(try parseError("a ==[c 'b'").message.contains("expected ']'"))
    }

    @Test func modifiers() throws {
        let any = try comparison("ANY tags.name == 'x'")
        #expect(any.comparisonPredicateModifier == .any)
        #expect(any.leftExpression == .keyPath("tags.name"))
        #expect(try comparison("some tags.name == 'x'").comparisonPredicateModifier == .any)
        #expect(try comparison("ALL tags.name BEGINSWITH[c] 'x'").comparisonPredicateModifier == .all)
        let none = try parse("NONE tags.name == 'x'")
        #expect(none == !CDExpression.keyPath("tags.name").compare(.equalTo, .constant("x"), modifier: .any))
        #expect(try parseError("ANY ANY a == 1").offset == 4)
    }

    @Test func betweenNeedsTwoBounds() throws {
        #expect(try comparison("a BETWEEN {1, 10}").rightExpression == .constant(.array([1, 10])))
        #expect(try comparison("a BETWEEN {b, 10}").rightExpression == CDExpression(forAggregate: [.keyPath("b"), .constant(10)]))
        #expect(try parseError("a BETWEEN {1, 2, 3}").message.contains("two bounds"))
        #expect(try parseError("a BETWEEN %@", [1]).message.contains("found 1"))
        #expect(try comparison("a BETWEEN %@", [1, 2]).rightExpression == .constant(.array([1, 2])))
    }

    // MARK: - Aggregates and indexes

    @Test func aggregatesNestAndFoldWhenConstant() throws {
        #expect(try expression("{}") == .constant(.array([])))
        #expect(try expression("{1, 'a', nil, {2, {3}}}") == .constant(.array([1, "a", nil, [2, [3]]])))
        #expect(try expression("{a, 1}") == CDExpression(forAggregate: [.keyPath("a"), .constant(1)]))
        #expect(try expression("{{a}, {1}}") == CDExpression(forAggregate: [
            CDExpression(forAggregate: [.keyPath("a")]), .constant(.array([1])),
        ]))
        #expect(try parseError("a IN {1, 2").message.contains("expected '}'"))
        #expect(try parseError("a IN {1,, 2}").offset == 8)
    }

    @Test func indexAccess() throws {
        #expect(try expression("items[FIRST]") == CDExpression(.index(.keyPath("items"), .first)))
        #expect(try expression("items[last]") == CDExpression(.index(.keyPath("items"), .last)))
        #expect(try expression("items[SIZE]") == CDExpression(.index(.keyPath("items"), .size)))
        #expect(try expression("items[2]") == CDExpression(.index(.keyPath("items"), .expression(.constant(2)))))
        #expect(try expression("dict['key']") == CDExpression(.index(.keyPath("dict"), .expression(.constant("key")))))
        #expect(try expression("items[n - 1]") == CDExpression(.index(
            .keyPath("items"), .expression(function("from:subtract:", .keyPath("n"), .constant(1)))
        )))
        let chained = try expression("a[0][FIRST].b.c")
        #expect(chained == CDExpression(.member(
            CDExpression(.index(CDExpression(.index(.keyPath("a"), .expression(.constant(0)))), .first)), keyPath: "b.c"
        )))
        #expect(try expression("SELF[FIRST]") == CDExpression(.index(.evaluatedObject, .first)))
        #expect(try parseError("a[FIRST == 1").message.contains("expected ']'"))
        #expect(try parseError("a[] == 1").offset == 2)
    }

    // MARK: - Arithmetic

    @Test func arithmeticPrecedenceAndAssociativity() throws {
        let a = CDExpression.keyPath("a"), b = CDExpression.keyPath("b"), c = CDExpression.keyPath("c")
        #expect(try expression("a + b * c") == function("add:to:", a, function("multiply:by:", b, c)))
        #expect(try expression("a * b + c") == function("add:to:", function("multiply:by:", a, b), c))
        #expect(try expression("a - b - c") == function("from:subtract:", function("from:subtract:", a, b), c))
        #expect(try expression("a / b / c") == function("divide:by:", function("divide:by:", a, b), c))
        #expect(try expression("a ** b ** c") == function("raise:toPower:", a, function("raise:toPower:", b, c)))
        #expect(try expression("(a + b) * c") == function("multiply:by:", function("add:to:", a, b), c))
        #expect(try expression("a * b ** c") == function("multiply:by:", a, function("raise:toPower:", b, c)))
    }

    @Test func unaryMinus() throws {
        let a = CDExpression.keyPath("a")
        let zero = CDExpression.constant(0)
        #expect(try expression("-a") == function("from:subtract:", zero, a))
        #expect(try expression("--a") == function("from:subtract:", zero, function("from:subtract:", zero, a)))
        #expect(try expression("-2") == .constant(-2))
        #expect(try expression("--2") == function("from:subtract:", zero, .constant(-2)))
        #expect(try expression("-(2)") == function("from:subtract:", zero, .constant(2)))
        #expect(try expression("-2 ** 2") == function("from:subtract:", zero, function("raise:toPower:", .constant(2), .constant(2))))
        #expect(try expression("-a * 3") == function("multiply:by:", function("from:subtract:", zero, a), .constant(3)))
        #expect(try expression("1 - -2") == function("from:subtract:", .constant(1), .constant(-2)))
        #expect(-a == function("from:subtract:", zero, a))
    }

    @Test func leftSideInParentheses() throws {
        let parsed = try comparison("(a + b) * 2 > c")
        #expect(parsed.leftExpression == function("multiply:by:", function("add:to:", .keyPath("a"), .keyPath("b")), .constant(2)))
        #expect(try comparison("(a) == 1").leftExpression == .keyPath("a"))
        #expect(try comparison("((a)).b IN {1}").leftExpression == .keyPath("a.b"))
        #expect(try parse("(a == 1) AND b == 2") is CDCompoundPredicate)
        #expect(try parse("NOT (a) BEGINSWITH 'x'") is CDCompoundPredicate)
    }

    @Test func setOperators() throws {
        let a = CDExpression.keyPath("a"), b = CDExpression.keyPath("b"), c = CDExpression.keyPath("c")
        #expect(try expression("a UNION b") == CDExpression(forUnionSet: a, with: b))
        #expect(try expression("a intersect b MINUS c") == CDExpression(forMinusSet: CDExpression(forIntersectSet: a, with: b), with: c))
        #expect(try expression("a UNION b + c") == CDExpression(forUnionSet: a, with: function("add:to:", b, c)))
        #expect(try parseError("a UNION == 1").offset == 8)
    }

    // MARK: - Functions and constructs

    @Test func functionCallsInBothSpellings() throws {
        #expect(try expression("now()") == function("now"))
        #expect(try expression("sqrt(16)") == function("sqrt:", .constant(16)))
        #expect(try expression("sqrt:(16)") == function("sqrt:", .constant(16)))
        #expect(try expression("sum({1, 2})") == function("sum:", .constant([1, 2])))
        #expect(try expression("add:to:(1, 2)") == function("add:to:", .constant(1), .constant(2)))
        #expect(try expression("modulus:by:(a, 3)") == function("modulus:by:", .keyPath("a"), .constant(3)))
        #expect(try expression("lowercase(name)") == function("lowercase:", .keyPath("name")))
        #expect(try expression("count(items)") == function("count:", .keyPath("items")))
        #expect(try expression("castObject:toType:(0, 'NSDate')") == .constant(.date(Date(timeIntervalSinceReferenceDate: 0))))
        #expect(try expression("count") == .keyPath("count"))
        #expect(try parseError("frobnicate(1) == 1").message.contains("unknown function 'frobnicate'"))
        #expect(try parseError("sqrt(1, 2) == 1").message.contains("takes 1 argument, not 2"))
        #expect(try parseError("now(1) == 1").message.contains("takes 0 arguments"))
        #expect(try parseError("add:to: == 1").message.contains("expected '('"))
    }

    @Test func customFunctions() throws {
        #expect(try expression("FUNCTION(SELF, 'reversed')") == CDExpression(.customFunction(
            target: .evaluatedObject, selector: "reversed", arguments: []
        )))
        #expect(try expression("FUNCTION(name, \"pad:with:\", 3, '-')") == CDExpression(.customFunction(
            target: .keyPath("name"), selector: "pad:with:", arguments: [.constant(3), .constant("-")]
        )))
        #expect(try parseError("FUNCTION(a, b) == 1").message.contains("selector"))
        #expect(try parseError("FUNCTION(a) == 1").message.contains("expected ','"))
    }

    @Test func subqueries() throws {
        let parsed = try comparison("SUBQUERY(items, $x, $x.done == YES AND $x.size > 2).@count > 0")
        let condition = CDExpression(.member(.variable("x"), keyPath: "done")).equalTo(true)
            && CDExpression(.member(.variable("x"), keyPath: "size")).greaterThan(2)
        let subquery = CDExpression(forSubquery: .keyPath("items"), usingIteratorVariable: "x", predicate: condition)
        #expect(parsed.leftExpression == CDExpression(.member(subquery, keyPath: "@count")))
        #expect(try parseError("SUBQUERY(items, x, x == 1).@count > 0").message.contains("iteration variable"))
        #expect(try parseError("SUBQUERY(items, $x).@count > 0").message.contains("expected ','"))
    }

    @Test func ternaryCastAndAnyKey() throws {
        #expect(try expression("TERNARY(a > 1, 'big', 'small')") == CDExpression(
            forConditional: CDExpression.keyPath("a").greaterThan(1), trueExpression: .constant("big"), falseExpression: .constant("small")
        ))
        #expect(try expression("CAST(a, 'NSString')") == function("castObject:toType:", .keyPath("a"), .constant("NSString")))
        #expect(try expression("CAST(1e400, 'NSNumber')") == .constant(.double(.infinity)))
        #expect(try parseError("a == CAST(1e400, 'NSDate')").message.contains("cannot convert"))
        #expect(try expression("ANYKEY") == CDExpression(.anyKey))
        #expect(try parseError("FETCH(a, b, NO) == 1").message.contains("FETCH"))
    }

    // MARK: - Keys, variables and arguments

    @Test func variablesAndCollectionOperators() throws {
        #expect(try expression("$LIMIT") == .variable("LIMIT"))
        #expect(try expression("$x.name") == CDExpression(.member(.variable("x"), keyPath: "name")))
        #expect(try expression("items.@sum.price") == .keyPath("items.@sum.price"))
        #expect(try expression("@count") == .keyPath("@count"))
        #expect(try expression("items.@distinctUnionOfObjects.name.@count") == .keyPath("items.@distinctUnionOfObjects.name.@count"))
        #expect(try expression("{a, b}.@count") == CDExpression(.member(CDExpression(forAggregate: [.keyPath("a"), .keyPath("b")]), keyPath: "@count")))
        #expect(try parseError("items.@total == 1").message.contains("unknown collection operator '@total'"))
    }

    @Test func everyPrintfSpecifier() throws {
        for specifier in ["%d", "%i", "%ld", "%lld", "%u", "%lu", "%x", "%f", "%lf", "%g", "%e"] {
            #expect(try comparison("a == \(specifier)", 7).rightExpression == .constant(7), "\(specifier)")
        }
        #expect(try comparison("a == %s", "x").rightExpression == .constant("x"))
        #expect(try comparison("a == %S", "x").rightExpression == .constant("x"))
        #expect(try comparison("a == %c", "é").rightExpression == .constant("é"))
        #expect(try comparison("a == %c", 65).rightExpression == .constant("A"))
        #expect(try parseError("a == %c", "ab").message.contains("one character"))
        #expect(try parseError("a == %s", 1).message.contains("must be a string"))
    }

    @Test func swiftBuildersMakeTheSameTrees() throws {
        let name = CDExpression.keyPath("name"), price = CDExpression.keyPath("price")
        let pairs: [(CDPredicate, String)] = [
            (name.like(.constant("a*"), options: .caseInsensitive), "name LIKE[c] 'a*'"),
            (name.matches(.constant("^a")), "name MATCHES '^a'"),
            (name.beginsWith(.constant("a"), options: [.caseInsensitive, .diacriticInsensitive]), "name BEGINSWITH[cd] 'a'"),
            (name.endsWith(.constant("z")), "name ENDSWITH 'z'"),
            (name.contains(.constant("m")), "name CONTAINS 'm'"),
            (name.in(.constant(["a", "b"])), "name IN {'a', 'b'}"),
            (price.between(1, and: 10), "price BETWEEN {1, 10}"),
            (CDExpression.keyPath("tags.name").none(.equalTo, .constant("x")), "NONE tags.name == 'x'"),
            ((price * .constant(2) + .constant(1)).greaterThan(-price / .keyPath("n")), "price * 2 + 1 > -price / n"),
            ((price - .constant(1)).lessThan(0), "price - 1 < 0"),
        ]
        for (built, format) in pairs {
            #expect(built == (try parse(format)), "\(format)")
        }
    }

    @Test func noPartOfTheGrammarIsLeftUnsupported() throws {
        let formats = [
            "a BETWEEN {1, 2}", "ANY tags.name == 'x'", "a ==[c] 'x'", "a IN %@", "name CONTAINS 'x'",
            "a + 1 == 2", "a == $VALUE", "SUBQUERY(items, $x, $x.done == YES).@count > 0", "a[FIRST] == 1",
            "NONE a == 1", "-a == 1", "(a) == 1", "{a} == 1", "now() > a", "FUNCTION(a, 'b') == 1",
            "TERNARY(TRUEPREDICATE, 1, 2) == 1", "a UNION b == c", "ANYKEY == 1", "a ** 2 == 4",
        ]
        for format in formats {
            #expect(throws: Never.self, "\(format)") { try CDPredicate(format: format, argumentArray: [[1]]) }
        }
    }
}
