import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct PredicateFormatTests {
    // MARK: - Canonical text

    @Test(arguments: [
        ("title = 'Milk'", #"title == "Milk""#),
        ("a<>1", "a != 1"),
        ("a =< -2.5", "a <= -2.5"),
        ("a => 0x10", "a >= 16"),
        ("a == nil", "a == nil"),
        ("a == yes AND b == NO", "a == TRUE AND b == FALSE"),
        ("a == 1 && (b == 2 || c == 3)", "a == 1 AND (b == 2 OR c == 3)"),
        ("(a == 1 OR b == 2) OR c == 3", "(a == 1 OR b == 2) OR c == 3"),
        ("!(a == 1)", "NOT a == 1"),
        ("not (a == 1 and b == 2)", "NOT (a == 1 AND b == 2)"),
        ("NOT NOT a == 1", "NOT NOT a == 1"),
        ("#first == 1", "#first == 1"),
        ("parent.size == 1", "parent.#size == 1"),
        ("SELF == 3", "SELF == 3"),
        ("self.title == 'x'", #"title == "x""#),
        (#"a == 'quote " and \\ and \n'"#, #"a == "quote \" and \\ and \n""#),
        ("truepredicate", "TRUEPREDICATE"),
        ("a == 1e300", "a == 1e+300"),
        ("a == CAST(10, 'NSDate')", #"a == CAST(10.0, "NSDate")"#),
        ("NONE tags.name == 'x'", #"NOT ANY tags.name == "x""#),
        ("some a == 1", "ANY a == 1"),
        ("a ==[CD] 'x'", #"a ==[cd] "x""#),
        ("a like[nc] 'x'", #"a LIKE[cn] "x""#),
        ("-a == 1", "0 - a == 1"),
        ("a + b * c == 1", "a + (b * c) == 1"),
        ("sqrt(16) == 4", "sqrt:(16) == 4"),
        ("now() > a", "now() > a"),
        ("a IN {1,2}", "a IN {1, 2}"),
        ("x[first] == 1", "x[FIRST] == 1"),
        ("subquery(items, $x, $x.a == 1).@count == 0", "SUBQUERY(items, $x, $x.a == 1).@count == 0"),
        ("function(a, 'f:', 1) == 1", #"FUNCTION(a, "f:", 1) == 1"#),
        ("ternary(a == 1, 2, 3) == 2", "TERNARY(a == 1, 2, 3) == 2"),
        ("a union b intersect c == d", "(a UNION b) INTERSECT c == d"),
    ])
    func canonicalFormat(input: String, expected: String) throws {
        #expect(try CDPredicate(format: input).predicateFormat == expected)
    }

    @Test func constantsWithoutLiteralsPrintAsCasts() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(CDValue.uuid(uuid).description == #"CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID")"#)
        #expect(CDValue.decimal(Decimal(string: "-1.25")!).description == #"CAST("-1.25", "NSDecimalNumber")"#)
        #expect(CDValue.data(Data([0, 255])).description == #"CAST("AP8=", "NSData")"#)
        #expect(CDValue.double(.infinity).description == #"CAST("inf", "NSNumber")"#)
        #expect(CDValue.string("\u{1}").description == #""\u0001""#)
        #expect(CDValue.array([1, "a", nil]).description == #"{1, "a", nil}"#)
    }

    @Test func builtTreesPrintTheWholeLanguage() throws {
        let tags = CDExpression.keyPath("tags.name")
        let any = tags.compare(.like, .constant("sw*"), modifier: .any, options: [.caseInsensitive, .diacriticInsensitive])
        #expect(any.predicateFormat == #"ANY tags.name LIKE[cd] "sw*""#)
        let between = CDExpression.keyPath("price").compare(.between, CDExpression(forAggregate: [.constant(1), .constant(10)]))
        #expect(between.predicateFormat == "price BETWEEN {1, 10}")
        let subquery = CDExpression(
            forSubquery: .keyPath("items"), usingIteratorVariable: "x",
            predicate: CDExpression(.member(.variable("x"), keyPath: "done")).equalTo(true)
        )
        let counted = CDExpression(.member(subquery, keyPath: "@count")).greaterThan(0)
        #expect(counted.predicateFormat == "SUBQUERY(items, $x, $x.done == TRUE).@count > 0")
        let sum = CDExpression(forFunction: "add:to:", arguments: [.keyPath("a"), .constant(-1)])
        #expect(sum.compare(.equalTo, .constant(2), modifier: .all).predicateFormat == "ALL a + (-1) == 2")
        #expect(CDExpression(.index(.keyPath("items"), .last)).format == "items[LAST]")
        #expect(CDExpression(forUnionSet: .keyPath("a"), with: .keyPath("b")).format == "a UNION b")
        let ternary = CDExpression(forConditional: CDPredicate(value: true), trueExpression: .constant(1), falseExpression: .constant(2))
        #expect(ternary.format == "TERNARY(TRUEPREDICATE, 1, 2)")
        #expect(CDCompoundPredicate(andPredicateWithSubpredicates: []).predicateFormat == "TRUEPREDICATE")
        #expect(CDCompoundPredicate(orPredicateWithSubpredicates: []).predicateFormat == "FALSEPREDICATE")
    }

    // MARK: - Round trips

    @Test(arguments: [
        "a == 1", "a.b.c != 'x'", "a < -9223372036854775808", "a <= 9223372036854775807", "a > 1.5e-300",
        "a >= -0.0", "a == nil", "nil == a", "a == TRUE", "SELF == 'me'", "3 < a", "'x' == 'y'",
        "a == 1 AND b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)", "(a == 1 AND b == 2) AND c == 3",
        "NOT (a == 1 OR b == 2)", "!(!(!(a == 1)))", "TRUEPREDICATE OR FALSEPREDICATE",
        "#AND == #OR", "#self.#in == 1", "items.@count > 2", #"a == "\u0000\u001F\u007F""#,
        "a == CAST(-123.25, 'NSDate')", "a == CAST('0.1', 'NSDecimalNumber')", "a == CAST('nan', 'NSNumber')",
        "a == CAST('-inf', 'NSNumber')", "a == CAST('https://x.org/p?q=1', 'NSURL')", "a == CAST('AAEC', 'NSData')",
        "((((a == 1))))", "a == 1 OR b == 2 OR c == 3 OR d == 4", "NOT a == 1 AND NOT b == 2",
        "name BEGINSWITH[cd] 'x'", "name endswith[c] $SUFFIX", "a LIKE[n] '*x?'", "a MATCHES '^[a-z]+$'",
        "a IN {1, 2, 3}", "a IN %@", "'x' IN name", "tags CONTAINS[c] 'x'", "a BETWEEN {1, 10}",
        "a BETWEEN {b, c}", "ANY tags.name == 'x'", "SOME tags.name != 'x'", "ALL tags.name >= 'x'",
        "NONE tags.name LIKE[cd] 'x*'", "NOT ANY tags.name == 'x'", "a + b * c == d ** 2 ** 3",
        "(a + b) * c / 2 - 1 > -3", "-a < 0", "--a < 0", "-(-1) == 1", "-2 ** 2 == -4", "1 - -2 == 3",
        "(a - b) - c == 0", "a - (b - c) == 0", "(a ** b) ** c == 1", "a[FIRST] == 1", "a[LAST].name == 'x'",
        "a[SIZE] > 2", "a[0] == a[-1]", "dict['key'] == 1", "a[b + 1][FIRST] == nil", "{a, 1}[FIRST] == 1",
        "{} == a", "{{1, 2}, {a}} CONTAINS {1, 2}", "SUBQUERY(items, $x, $x.done == YES).@count > 0",
        "SUBQUERY(items, $x, ANY $x.tags.name == 'a' AND SUBQUERY($x.children, $y, $y.n > $x.n).@count == 0).@count == 1",
        "FUNCTION(SELF, 'reversed') == 'x'", "FUNCTION(name, 'pad:with:', 3, '-') == 'x'",
        "TERNARY(a > 1, 'big', 'small') == 'big'", "now() > date", "sqrt(a) == 4", "sum({1, 2, a}) == 3",
        "add:to:(1, 2) == 3", "modulus:by:(a, 2) == 0", "lowercase(name) == 'x'", "count(items) > 1",
        "CAST(a, 'NSString') == '1'", "CAST(a, b) == 1", "castObject:toType:(a, 'NSDate') > %@",
        "a UNION b == c", "(a UNION b) INTERSECT c MINUS d == e", "a UNION (b UNION c) == d",
        "ANYKEY == 'x'", "$x.name == 'y'", "items.@sum.price > 10", "items.@avg.price < items.@max.price",
        "items.@distinctUnionOfObjects.name.@count == 2", "'abc'.length == 3", "(1 + 2).description == '3'",
        "(a + b).@count == 1", "a == %c", "SELF[FIRST] == 1", "sum:({1, 2}).x == 1",
    ])
    func parsePrintParseIsStable(format: String) throws {
        let first = try CDPredicate(format: format, argumentArray: format.contains("%c") ? ["c"] : [[1, "two", nil]])
        let printed = first.predicateFormat
        let second = try CDPredicate(format: printed)
        #expect(second == first, "\(format) → \(printed) → \(second.predicateFormat)")
        #expect(second.hashValue == first.hashValue)
        #expect(second.predicateFormat == printed)
    }

    @Test func randomTreesRoundTrip() throws {
        let random = SeededRandom.fromEnvironment(for: "PredicateFormatTests.randomTreesRoundTrip")
        var generator = RandomPredicateTrees(random)
        for _ in 0..<1_000 {
            let predicate = generator.predicate(depth: 5)
            let printed = predicate.predicateFormat
            let reparsed = try #require(
                try? CDPredicate(format: printed), "seed \(random.seed): \(printed) does not parse"
            )
            #expect(reparsed == predicate, "seed \(random.seed): \(printed) → \(reparsed.predicateFormat)")
            #expect(reparsed.hashValue == predicate.hashValue, "seed \(random.seed): \(printed)")
            #expect(reparsed.predicateFormat == printed, "seed \(random.seed)")
        }
    }

    @Test func equalityIsStructural() throws {
        #expect(try CDPredicate(format: "a == 1") != CDPredicate(format: "a == 1.0"))
        #expect(try CDPredicate(format: "a == 1") != CDPredicate(format: "a != 1"))
        #expect(try CDPredicate(format: "a == 1") != CDPredicate(format: "b == 1"))
        #expect(try CDPredicate(format: "a == 1 AND b == 2") != CDPredicate(format: "a == 1 OR b == 2"))
        #expect(try CDPredicate(format: "a == 1") == CDExpression.keyPath("a").equalTo(1))
        let set: Set<CDPredicate> = [try CDPredicate(format: "a == 1"), CDExpression.keyPath("a").equalTo(1)]
        #expect(set.count == 1)
    }
}
