import Foundation
import Testing
@testable import OpenCoreData

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
    ])
    func parsePrintParseIsStable(format: String) throws {
        let first = try CDPredicate(format: format)
        let printed = first.predicateFormat
        let second = try CDPredicate(format: printed)
        #expect(second == first, "\(format) → \(printed) → \(second.predicateFormat)")
        #expect(second.hashValue == first.hashValue)
        #expect(second.predicateFormat == printed)
    }

    @Test func randomTreesRoundTrip() throws {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("PredicateFormatTests.randomTreesRoundTrip seed: \(seed)")
        var generator = RandomPredicates(seed: seed)
        for _ in 0..<400 {
            let predicate = generator.predicate(depth: 4)
            let printed = predicate.predicateFormat
            let reparsed = try CDPredicate(format: printed)
            #expect(reparsed == predicate, "seed \(seed): \(printed) → \(reparsed.predicateFormat)")
            #expect(reparsed.predicateFormat == printed, "seed \(seed)")
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

/// Random predicate trees of the shapes the parser produces (seeded, reproducible).
private struct RandomPredicates {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    private mutating func pick<T>(_ options: [T]) -> T { options[int(0...(options.count - 1))] }

    mutating func predicate(depth: Int) -> CDPredicate {
        let choice = depth == 0 ? 0 : int(0...9)
        switch choice {
        case 0...5:
            let type = pick([CDComparisonPredicate.Operator.equalTo, .notEqualTo, .lessThan,
                             .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo])
            return expression().compare(type, expression())
        case 6:
            return CDPredicate(value: int(0...1) == 1)
        case 7:
            return !predicate(depth: depth - 1)
        default:
            let operands = (0..<int(2...4)).map { _ in predicate(depth: depth - 1) }
            return CDCompoundPredicate(type: int(0...1) == 0 ? .and : .or, subpredicates: operands)
        }
    }

    private mutating func expression() -> CDExpression {
        switch int(0...9) {
        case 0: return .evaluatedObject
        case 1...4:
            let keys = ["a", "title", "first", "size", "AND", "self", "ünï", "_x9", "@count"]
            let count = int(1...3)
            var path = (0..<count).map { _ in pick(keys) }
            if path[0] == "self" { path[0] = "a" }
            return .keyPath(path.joined(separator: "."))
        default: return .constant(value())
        }
    }

    private mutating func value() -> CDValue {
        switch int(0...11) {
        case 0: return .null
        case 1: return .bool(int(0...1) == 1)
        case 2: return .int64(pick([0, 1, -1, .max, .min, Int64(bitPattern: next())]))
        case 3: return .double(pick([0.5, -0.0, 1e-300, -2.5e300, .infinity, -.infinity, .nan, Double(bitPattern: next() >> 2)]))
        case 4: return .decimal(Decimal(string: pick(["0", "-1.5", "12345678901234567890.123", "0.001"]))!)
        case 5, 6:
            let pieces = ["a", "\"", "'", "\\", "\n", "\t", "\u{0}", "\u{7F}", "é", "e\u{301}", "😀", " ", "%@", "$x"]
            return .string((0..<int(0...6)).map { _ in pick(pieces) }.joined())
        case 7: return .date(Date(timeIntervalSinceReferenceDate: Double(Int64(bitPattern: next()) % 1_000_000_000) / 8))
        case 8: return .data(Data((0..<int(0...9)).map { _ in UInt8(truncatingIfNeeded: next()) }))
        case 9: return .uuid(UUID())
        case 10: return .url(URL(string: "https://example.com/p\(int(0...99))?q=\(int(0...9))")!)
        default: return .string("")
        }
    }
}
