import Foundation
import Testing
@testable import OpenCoreData

@Suite struct PredicateParserTests {
    // MARK: - Helpers

    private func comparison(_ format: String, _ arguments: Any?...) throws -> CDComparisonPredicate {
        let predicate = try CDPredicate(format: format, argumentArray: arguments)
        return try #require(predicate as? CDComparisonPredicate, "\(format) parsed to \(predicate)")
    }

    private func constant(_ format: String, _ arguments: Any?...) throws -> CDValue {
        let parsed = try comparison(format, argumentArray: arguments)
        return try #require(parsed.rightExpression.constantValue)
    }

    private func comparison(_ format: String, argumentArray: [Any?]) throws -> CDComparisonPredicate {
        let predicate = try CDPredicate(format: format, argumentArray: argumentArray)
        return try #require(predicate as? CDComparisonPredicate)
    }

    private func parseError(_ format: String, _ arguments: Any?...) throws -> CoreDataError {
        try #require(throws: CoreDataError.self) { try CDPredicate(format: format, argumentArray: arguments) }
    }

    // MARK: - Comparisons

    @Test func aComparisonHasItsParts() throws {
        let parsed = try comparison("title == 'Milk'")
        #expect(parsed.leftExpression == .keyPath("title"))
        #expect(parsed.rightExpression == .constant(.string("Milk")))
        #expect(parsed.predicateOperatorType == .equalTo)
        #expect(parsed.comparisonPredicateModifier == .direct)
        #expect(parsed.options == [])
    }

    @Test(arguments: [
        ("=", CDComparisonPredicate.Operator.equalTo), ("==", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo),
        ("<", .lessThan), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo), (">", .greaterThan),
        (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo),
    ])
    func everyOperatorSpelling(symbol: String, type: CDComparisonPredicate.Operator) throws {
        #expect(try comparison("a \(symbol) 1").predicateOperatorType == type)
        #expect(try comparison("a\(symbol)1").predicateOperatorType == type)
    }

    @Test func keyPathsAreDottedAndSelfIsTheEvaluatedObject() throws {
        #expect(try comparison("parent.parent.title == nil").leftExpression == .keyPath("parent.parent.title"))
        #expect(try comparison("SELF == %@", 1).leftExpression == .evaluatedObject)
        #expect(try comparison("self.title == 'x'").leftExpression == .keyPath("title"))
        #expect(try comparison("items.@count == 2").leftExpression == .keyPath("items.@count"))
        #expect(try comparison("%K == 1", "parent.title").leftExpression == .keyPath("parent.title"))
        #expect(try comparison("%K.name == 1", "parent").leftExpression == .keyPath("parent.name"))
    }

    @Test func reservedWordsAreKeysWhenEscaped() throws {
        #expect(try comparison("#AND == 1").leftExpression == .keyPath("AND"))
        #expect(try comparison("#first.#size == 1").leftExpression == .keyPath("first.size"))
        #expect(try comparison("parent.first == 1").leftExpression == .keyPath("parent.first"))
        let error = try parseError("first == 1")
        #expect(error.message.contains("#first"))
    }

    // MARK: - Literals

    @Test func numberLiterals() throws {
        #expect(try constant("a == 42") == .int64(42))
        #expect(try constant("a == -42") == .int64(-42))
        #expect(try constant("a == - 7") == .int64(-7))
        #expect(try constant("a == 1.5") == .double(1.5))
        #expect(try constant("a == -0.25") == .double(-0.25))
        #expect(try constant("a == 2e3") == .double(2000))
        #expect(try constant("a == 1.5E-2") == .double(0.015))
        #expect(try constant("a == 0x1F") == .int64(31))
        #expect(try constant("a == 0o17") == .int64(15))
        #expect(try constant("a == 0b101") == .int64(5))
        #expect(try constant("a == 9223372036854775807") == .int64(.max))
        #expect(try constant("a == -9223372036854775808") == .int64(.min))
        #expect(try constant("a == 9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try constant("a == 123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func stringLiteralsWithEscapes() throws {
        #expect(try constant(#"a == "say \"hi\"""#) == .string(#"say "hi""#))
        #expect(try constant(#"a == 'it\'s'"#) == .string("it's"))
        #expect(try constant(#"a == "tab\there\nnew \\ back""#) == .string("tab\there\nnew \\ back"))
        #expect(try constant(#"a == "\x41\u00e9\U0001F600\ud83d\ude00""#) == .string("Aé😀😀"))
        #expect(try constant("a == '%@ $x %K'") == .string("%@ $x %K"))
        #expect(try constant("a == \"ünïcødé ✓\"") == .string("ünïcødé ✓"))
    }

    @Test func keywordLiteralsInAnyCase() throws {
        for word in ["nil", "NIL", "null", "Null"] { #expect(try constant("a == \(word)") == .null) }
        for word in ["TRUE", "true", "YES", "yes"] { #expect(try constant("a == \(word)") == .bool(true)) }
        for word in ["FALSE", "False", "NO", "no"] { #expect(try constant("a == \(word)") == .bool(false)) }
        let predicate = try CDPredicate(format: "a == 1 and b == 2 Or not c == 3")
        #expect(predicate.predicateFormat == "(a == 1 AND b == 2) OR NOT c == 3")
    }

    @Test func castFoldsConstants() throws {
        #expect(try constant("a == CAST(0, 'NSDate')") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try constant("a == CAST(-1.5, \"NSDate\")") == .date(Date(timeIntervalSinceReferenceDate: -1.5)))
        #expect(try constant("a == CAST('1.10', 'NSDecimalNumber')") == .decimal(Decimal(string: "1.1")!))
        let uuid = UUID()
        #expect(try constant("a == CAST('\(uuid.uuidString)', 'NSUUID')") == .uuid(uuid))
        #expect(try parseError("a == CAST('nope', 'NSUUID')").message.contains("cannot convert"))
        let unfolded = try comparison("a == CAST(b, 'NSDate')").rightExpression
        #expect(unfolded.function == "castObject:toType:")
    }

    // MARK: - Arguments

    @Test func objectArgumentsOfEveryType() throws {
        let entity = EntityDescription(name: "Item")
        let objectID = ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 7)
        let object = ManagedObject.detached(entity: entity, objectID: objectID)
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let uuid = UUID()
        let url = URL(string: "https://example.com/a?b=c")!
        let cases: [(Any?, CDValue)] = [
            (Int8(-3), .int64(-3)), (Int16(300), .int64(300)), (Int32(-70000), .int64(-70000)),
            (Int64.max, .int64(.max)), (Int(5), .int64(5)), (UInt8(255), .int64(255)), (UInt16(9), .int64(9)),
            (UInt32.max, .int64(Int64(UInt32.max))), (UInt(7), .int64(7)),
            (UInt64.max, .decimal(Decimal(UInt64.max))), (true, .bool(true)), (Float(0.5), .double(0.5)),
            (2.25, .double(2.25)), (Decimal(string: "3.14")!, .decimal(Decimal(string: "3.14")!)),
            (NSNumber(value: 12), .int64(12)), (NSNumber(value: 1.5), .double(1.5)), (NSNumber(value: true), .bool(true)),
            (NSDecimalNumber(string: "2.5"), .decimal(Decimal(string: "2.5")!)),
            ("text", .string("text")), ("sub"[...], .string("sub")), (date, .date(date)),
            (Data([1, 2, 3]), .data(Data([1, 2, 3]))), (uuid, .uuid(uuid)), (url, .url(url)),
            (objectID, .objectID(objectID)), (object, .objectID(objectID)), (nil, .null), (NSNull(), .null),
            (Optional<Int>.none as Any, .null), (Optional<Int>.some(4) as Any, .int64(4)),
            ([1, 2] as [Int], .array([.int64(1), .int64(2)])), (["a", nil] as [String?], .array([.string("a"), .null])),
            (Set([9]), .array([.int64(9)])), (CDValue.string("raw"), .string("raw")),
        ]
        for (argument, expected) in cases {
            #expect(try constant("a == %@", argument) == expected, "argument \(String(describing: argument))")
        }
    }

    @Test func unsupportedArgumentTypesAreTypedErrors() throws {
        struct Custom {}
        for argument in [Custom() as Any, ["k": 1] as Any, [Custom()] as Any] {
            let error = try parseError("a == %@", argument)
            #expect(error.code == .invalidPredicate)
            #expect(error.message.contains("Custom") || error.message.contains("Dictionary"))
        }
    }

    @Test func printfSpecifiersTakeCheckedArguments() throws {
        #expect(try constant("a == %d", 42) == .int64(42))
        #expect(try constant("a == %ld", Int64(-1)) == .int64(-1))
        #expect(try constant("a == %f", 1.5) == .double(1.5))
        #expect(try constant("a == %s", "x") == .string("x"))
        #expect(try parseError("a == %d", "x").message.contains("must be a number"))
        #expect(try parseError("a == %@ AND b == %@", 1).message.contains("missing argument"))
        #expect(try parseError("%K == 1", 5).message.contains("key path"))
        #expect(try parseError("a == %q").message.contains("format specifier"))
        // Extra arguments are ignored, as Core Data does.
        #expect(try constant("a == %@", 1, 2) == .int64(1))
    }

    // MARK: - Compounds

    @Test func precedenceAndFlattening() throws {
        let predicate = try CDPredicate(format: "a == 1 OR b == 2 AND c == 3 || d == 4")
        let or = try #require(predicate as? CDCompoundPredicate)
        #expect(or.compoundPredicateType == .or)
        #expect(or.subpredicates.count == 3)
        let and = try #require(or.subpredicates[1] as? CDCompoundPredicate)
        #expect(and.compoundPredicateType == .and)
        #expect(and.subpredicates.count == 2)

        let grouped = try CDPredicate(format: "(a == 1 OR b == 2) && !(c == 3) AND NOT NOT d == 4")
        let expected = CDCompoundPredicate(andPredicateWithSubpredicates: [
            CDExpression.keyPath("a").equalTo(1) || CDExpression.keyPath("b").equalTo(2),
            !CDExpression.keyPath("c").equalTo(3),
            !(!CDExpression.keyPath("d").equalTo(4)),
        ])
        #expect(grouped == expected)
    }

    @Test func constantPredicatesAndConcreteClasses() throws {
        #expect(try CDPredicate(format: "TRUEPREDICATE") == CDPredicate(value: true))
        #expect(try CDPredicate(format: "falsepredicate") == CDPredicate(value: false))
        #expect(try CDPredicate(format: "a == 1") is CDComparisonPredicate)
        #expect(try CDPredicate(format: "NOT a == 1") is CDCompoundPredicate)
        #expect(try CDCompoundPredicate(format: "a == 1 AND b == 2").subpredicates.count == 2)
        let error = try #require(throws: CoreDataError.self) { try CDComparisonPredicate(format: "a == 1 AND b == 2") }
        #expect(error.message.contains("CDCompoundPredicate"))
    }

    // MARK: - Errors

    @Test func errorsNameTheOffsetAndToken() throws {
        let stray = try parseError("a == 1 )")
        #expect(stray.code == .invalidPredicate)
        #expect(stray.offset == 7)
        #expect(stray.message.contains("')'") && stray.message.contains("offset 7"))

        let missing = try parseError("a ==")
        #expect(missing.offset == 4)
        #expect(missing.message.contains("end of input"))

        #expect(try parseError("a == 'open").offset == 5)
        #expect(try parseError("a ? 1").message.contains("'?'"))
        #expect(try parseError("a == 1 AND").offset == 10)
        #expect(try parseError("(a == 1").message.contains("expected ')'"))
        #expect(try parseError("a b").message.contains("comparison operator"))
        #expect(try parseError("a == 12abc").message.contains("invalid number"))
        #expect(try parseError("").offset == 0)
        #expect(try parseError("é == 1 )").offset == 7)
    }

    // MARK: - Walking the tree

    /// Collects the key paths and constants of a tree, switching exhaustively as a compiler would.
    private func walk(_ predicate: CDPredicate, into parts: inout [String]) {
        switch predicate.kind {
        case .constant(let value):
            parts.append("constant \(value)")
        case .comparison(let comparison):
            parts.append("\(comparison.predicateOperatorType) \(comparison.comparisonPredicateModifier) \(comparison.options.rawValue)")
            for expression in [comparison.leftExpression, comparison.rightExpression] {
                switch expression.expressionType {
                case .keyPath: parts.append("key \(expression.keyPath ?? "?")")
                case .constantValue: parts.append("value \(expression.constantValue ?? .null)")
                case .evaluatedObject: parts.append("SELF")
                default: parts.append("other")
                }
            }
        case .compound(let compound):
            parts.append("\(compound.compoundPredicateType) \(compound.subpredicates.count)")
            for subpredicate in compound.subpredicates { walk(subpredicate, into: &parts) }
        }
    }

    @Test func theTreeIsWalkableWithPublicProperties() throws {
        var parts: [String] = []
        walk(try CDPredicate(format: "parent.title == %@ OR (NOT SELF != 2 AND TRUEPREDICATE)", "x"), into: &parts)
        #expect(parts == [
            "or 2", "equalTo direct 0", "key parent.title", #"value "x""#,
            "and 2", "not 1", "notEqualTo direct 0", "SELF", "value 2", "constant true",
        ])
    }

    @Test func swiftBuildersMakeTheSameTreesAsFormats() throws {
        let built = CDExpression.keyPath("age").greaterThanOrEqualTo(18) && !CDExpression(forKeyPath: "name").equalTo(.null)
        #expect(built == (try CDPredicate(format: "age >= 18 AND NOT name == nil")))
        let constant = CDExpression(forConstantValue: 5)
        #expect(constant.constantValue == .int64(5))
        #expect(try CDExpression(forConstantValue: CDValue(argument: Int16(5))) == constant)
        #expect(throws: CoreDataError.self) { try CDValue(argument: [1: 2]) }
        let comparison = CDComparisonPredicate(
            leftExpression: .keyPath("a"), rightExpression: .constant(1), modifier: .direct, type: .lessThan, options: []
        )
        #expect(comparison == (try CDPredicate(format: "a < 1")))
    }
}
