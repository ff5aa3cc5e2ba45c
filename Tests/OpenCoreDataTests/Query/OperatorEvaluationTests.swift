import Foundation
import Testing
@testable import OpenCoreData

/// Every comparison operator, with the `[c]`, `[d]` and `[n]` options, on dictionaries.
@Suite struct OperatorEvaluationTests {
    private typealias T = Tree
    private let row: [String: Any] = [
        "name": "Café Crème", "word": "Straße", "n": 5, "tags": ["swift", "Linux"], "empty": [Any](),
        "when": Date(timeIntervalSinceReferenceDate: 1000), "lookup": ["a": 1, "b": 2],
        "decomposed": "Cafe\u{301}",
    ]

    private func check(_ left: CDExpression, _ type: CDComparisonPredicate.Operator, _ right: CDExpression,
                       _ options: CDComparisonPredicate.Options = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        try holds(T.compare(left, type, right, .direct, options), row, sourceLocation: sourceLocation)
    }

    // MARK: - Affixes and substrings

    @Test func beginsWithAndEndsWith() throws {
        let name = T.key("name")
        #expect(try check(name, .beginsWith, T.const("Caf")))
        #expect(try !check(name, .beginsWith, T.const("caf")))
        #expect(try check(name, .beginsWith, T.const("caf"), .caseInsensitive))
        #expect(try !check(name, .beginsWith, T.const("Cafe")))
        #expect(try check(name, .beginsWith, T.const("Cafe"), .diacriticInsensitive))
        #expect(try check(name, .beginsWith, T.const("cafe cre"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try check(name, .endsWith, T.const("rème")))
        #expect(try !check(name, .endsWith, T.const("CREME"), .caseInsensitive))
        #expect(try check(name, .endsWith, T.const("CREME"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try !check(name, .beginsWith, T.const("")))
        #expect(try !check(name, .endsWith, T.const("")))
    }

    @Test func containsOnStrings() throws {
        let name = T.key("name")
        #expect(try check(name, .contains, T.const("é C")))
        #expect(try check(name, .contains, T.const("CRÈ"), .caseInsensitive))
        #expect(try !check(name, .contains, T.const("creme"), .diacriticInsensitive))
        #expect(try check(name, .contains, T.const("creme"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try !check(name, .contains, T.const("xyz")))
    }

    @Test func likeAndMatches() throws {
        let name = T.key("name")
        #expect(try check(name, .like, T.const("Caf? *")))
        #expect(try !check(name, .like, T.const("caf*")))
        #expect(try check(name, .like, T.const("caf*"), .caseInsensitive))
        #expect(try check(name, .like, T.const("C*e")))
        #expect(try !check(name, .like, T.const("C*x")))
        #expect(try check(name, .matches, T.const("Caf.*")))
        #expect(try !check(name, .matches, T.const("af.*")), "MATCHES covers the whole string")
        #expect(try check(name, .matches, T.const("caf.*"), .caseInsensitive))
        #expect(failsToEvaluate(T.compare(name, .matches, T.const("(")), row))
        // A bad pattern or bad bounds are errors whatever the left side holds.
        #expect(failsToEvaluate(T.compare(T.key("missing"), .matches, T.const("(")), row))
        #expect(failsToEvaluate(T.compare(T.key("empty"), .matches, T.const("("), .any), row))
        #expect(failsToEvaluate(T.compare(T.key("empty"), .between, T.const([1]), .all), row))
    }

    // MARK: - Equality and order with options

    @Test func equalityAndOrderWithOptions() throws {
        let word = T.key("word")
        #expect(try check(word, .equalTo, T.const("STRASSE"), .caseInsensitive), "ß folds to ss")
        #expect(try !check(word, .equalTo, T.const("strasse")))
        #expect(try !check(word, .notEqualTo, T.const("STRASSE"), .caseInsensitive))
        #expect(try check(T.key("name"), .equalTo, T.const("Cafe Creme"), .diacriticInsensitive))
        #expect(try check(T.key("name"), .equalTo, T.const("Café Crème"), .normalized))
        // A decomposed é equals the precomposed one only with [d].
        #expect(try !check(T.key("decomposed"), .equalTo, T.const("Café")))
        #expect(try check(T.key("decomposed"), .equalTo, T.const("Café"), .diacriticInsensitive))
        // Order: bytes put "B" (0x42) before "a" (0x61); [c] folds first.
        #expect(try !check(T.const("apple"), .lessThan, T.const("Banana")))
        #expect(try check(T.const("apple"), .lessThan, T.const("Banana"), .caseInsensitive))
        #expect(try check(T.const("APPLE"), .greaterThanOrEqualTo, T.const("apple"), .caseInsensitive))
        #expect(try check(T.const("APPLE"), .lessThanOrEqualTo, T.const("apple"), .caseInsensitive))
        // Options do not change how other values compare.
        #expect(try check(T.key("n"), .equalTo, T.const(5.0), .caseInsensitive))
        #expect(try check(T.key("missing"), .equalTo, T.const(nil), .caseInsensitive))
    }

    @Test func stringOperatorsOnOtherValuesAreFalse() throws {
        #expect(try !check(T.key("n"), .beginsWith, T.const("5")))
        #expect(try !check(T.key("missing"), .beginsWith, T.const("a")))
        #expect(try !check(T.key("name"), .endsWith, T.const(5)))
        #expect(try !check(T.key("name"), .matches, T.const(nil)))
        #expect(try !check(T.key("when"), .like, T.const("*")))
        #expect(try !check(T.key("tags"), .beginsWith, T.const("swift")))
    }

    // MARK: - IN and CONTAINS

    @Test func inACollectionOrAString() throws {
        #expect(try check(T.const("swift"), .in, T.key("tags")))
        #expect(try !check(T.const("SWIFT"), .in, T.key("tags")))
        #expect(try check(T.const("SWIFT"), .in, T.key("tags"), .caseInsensitive))
        #expect(try check(T.key("n"), .in, T.const([1, 5, 9])))
        #expect(try !check(T.key("n"), .in, T.const([1, 2])))
        #expect(try check(T.key("n"), .in, T.list(T.const(5.0))), "numbers by value")
        #expect(try !check(T.key("n"), .in, T.key("empty")))
        #expect(try check(T.const("Crè"), .in, T.key("name")), "a string right side is a substring test")
        #expect(try check(T.const("crè"), .in, T.key("name"), .caseInsensitive))
        #expect(try !check(T.key("n"), .in, T.key("missing")))
        #expect(try !check(T.key("n"), .in, T.const("5")))
        #expect(try check(T.const(2), .in, T.key("lookup")), "a dictionary offers its values")
        #expect(try !check(T.const("a"), .in, T.key("lookup")))
        #expect(try check(T.const(nil), .in, T.list(T.const(1), T.const(nil))))
        #expect(failsToEvaluate(T.compare(T.key("n"), .in, T.const(7)), row))
    }

    @Test func containsAnElementOrASubstring() throws {
        #expect(try check(T.key("tags"), .contains, T.const("Linux")))
        #expect(try !check(T.key("tags"), .contains, T.const("linux")))
        #expect(try check(T.key("tags"), .contains, T.const("linux"), .caseInsensitive))
        #expect(try !check(T.key("empty"), .contains, T.const(1)))
        #expect(try !check(T.key("missing"), .contains, T.const(1)))
        #expect(try check(T.const([1, 2, 3]), .contains, T.const(2.0)))
        #expect(failsToEvaluate(T.compare(T.key("n"), .contains, T.const(5)), row))
        #expect(failsToEvaluate(T.compare(T.key("when"), .contains, T.const(5)), row))
    }

    // MARK: - BETWEEN

    @Test func betweenIsInclusive() throws {
        let n = T.key("n")
        #expect(try check(n, .between, T.const([1, 5])))
        #expect(try check(n, .between, T.const([5, 5])))
        #expect(try check(n, .between, T.list(T.const(4.5), T.const(.decimal(Decimal(6))))))
        #expect(try !check(n, .between, T.const([6, 9])))
        #expect(try !check(n, .between, T.const([5.5, 4])), "lower bound above upper bound matches nothing")
        #expect(try !check(n, .between, T.const(["a", "z"])), "unrelated types")
        #expect(try !check(T.key("missing"), .between, T.const([1, 5])))
        #expect(try !check(n, .between, T.list(T.const(nil), T.const(9))))
        #expect(try check(T.key("name"), .between, T.const(["A", "D"])))
        let dates = T.list(T.const(.date(Date(timeIntervalSinceReferenceDate: 0))), T.const(.date(Date(timeIntervalSinceReferenceDate: 2000))))
        #expect(try check(T.key("when"), .between, dates))
        #expect(failsToEvaluate(T.compare(n, .between, T.const([1])), row))
        #expect(failsToEvaluate(T.compare(n, .between, T.const([1, 2, 3])), row))
        #expect(failsToEvaluate(T.compare(n, .between, T.const(3)), row))
    }
}
