import Foundation
import Testing
@testable import OpenCoreData

/// The built-in functions, with NSExpression's names, and `castObject:toType:`.
@Suite struct FunctionEvaluationTests {
    private typealias T = Tree

    private func call(_ name: String, _ arguments: CDValue...) throws -> Any? {
        try valueOf(CDExpression(forFunction: name, arguments: arguments.map(T.const)))
    }

    // MARK: - Arithmetic

    @Test func integerArithmeticStaysIntegerUntilItOverflows() throws {
        #expect(try call("add:to:", 2, 3) as? Int64 == 5)
        #expect(try call("from:subtract:", 10, 4) as? Int64 == 6)
        #expect(try call("multiply:by:", 6, 7) as? Int64 == 42)
        #expect(try call("add:to:", .int64(.max), 1) as? Double == 9_223_372_036_854_775_808.0)
        #expect(try call("from:subtract:", .int64(.min), 1) as? Double == -9_223_372_036_854_775_809.0)
        #expect(try call("multiply:by:", .int64(.max), 2) as? Double == 18_446_744_073_709_551_614.0)
        #expect(try call("from:subtract:", 0, .int64(.min)) as? Double == 9_223_372_036_854_775_808.0, "unary minus of Int64.min")
        #expect(try call("add:to:", 2, 0.5) as? Double == 2.5)
        #expect(try call("add:to:", .decimal(Decimal(string: "1.1")!), 1) as? Decimal == Decimal(string: "2.1"))
        #expect(try call("multiply:by:", .decimal(2), 0.25) as? Double == 0.5)
        #expect(try call("add:to:", true, 1) as? Int64 == 2, "a Boolean is 0 or 1")
    }

    @Test func divisionModulusAndPowers() throws {
        #expect(try call("divide:by:", 7, 2) as? Double == 3.5)
        #expect(try call("divide:by:", 6, 3) as? Double == 2.0, "always a double")
        #expect(try call("divide:by:", 1, 0) == nil)
        #expect(try call("divide:by:", 1, 0.0) == nil)
        #expect(try call("modulus:by:", 7, 3) as? Int64 == 1)
        #expect(try call("modulus:by:", -7, 3) as? Int64 == -1, "the sign of the dividend")
        #expect(try call("modulus:by:", 7, 0) == nil)
        #expect(try call("modulus:by:", .int64(.min), -1) as? Int64 == 0)
        #expect(try call("modulus:by:", 7.5, 2) as? Double == 1.5)
        #expect(try call("raise:toPower:", 2, 10) as? Int64 == 1024)
        #expect(try call("raise:toPower:", -3, 3) as? Int64 == -27)
        #expect(try call("raise:toPower:", 2, -1) as? Double == 0.5)
        #expect(try call("raise:toPower:", 2, 64) as? Double == 18_446_744_073_709_551_616.0)
        #expect(try call("raise:toPower:", 10, 1_000_000_000) as? Double == .infinity)
        #expect(try call("raise:toPower:", 1, .int64(.max)) as? Int64 == 1)
        #expect(try call("raise:toPower:", 4, 0.5) as? Double == 2.0)
    }

    @Test func nilOperandsGiveNilAndWrongTypesAreErrors() throws {
        for name in ["add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:", "bitwiseAnd:with:"] {
            #expect(try call(name, nil, 1) == nil, "\(name)")
            #expect(try call(name, 1, nil) == nil, "\(name)")
            #expect(throws: CoreDataError.self, "\(name)") { try call(name, "a", 1) }
            #expect(throws: CoreDataError.self, "\(name)") { try call(name, 1) }
        }
        for name in ["abs:", "sqrt:", "floor:", "uppercase:", "length:", "onesComplement:"] {
            #expect(try call(name, nil) == nil, "\(name)")
        }
        #expect(throws: CoreDataError.self) { try call("abs:", "x") }
        #expect(throws: CoreDataError.self) { try call("uppercase:", 5) }
        #expect(throws: CoreDataError.self) { try call("now", 1) }
        let unknown = try #require(throws: CoreDataError.self) { try call("random") }
        #expect(unknown.code == .invalidPredicate && unknown.message.contains("random"))
    }

    @Test func mathFunctions() throws {
        #expect(try call("abs:", -3) as? Int64 == 3)
        #expect(try call("abs:", .int64(.min)) as? Double == 9_223_372_036_854_775_808.0)
        #expect(try call("abs:", -2.5) as? Double == 2.5)
        #expect(try call("sqrt:", 16) as? Double == 4)
        #expect((try call("sqrt:", -1) as? Double)?.isNaN == true)
        #expect(try call("log:", 1000) as? Double == 3)
        #expect(try call("ln:", 1) as? Double == 0)
        #expect(try call("exp:", 0) as? Double == 1)
        #expect(try call("floor:", 2.7) as? Double == 2)
        #expect(try call("floor:", -2.5) as? Double == -3)
        #expect(try call("ceiling:", 2.1) as? Double == 3)
        #expect(try call("trunc:", -2.7) as? Double == -2)
        #expect(try call("floor:", 5) as? Int64 == 5)
        #expect(try call("ceiling:", .decimal(Decimal(string: "1.5")!)) as? Double == 2)
    }

    // MARK: - Statistics

    /// An average does not depend on the order of the values (a to-many is a set in memory
    /// and rows in SQL): summed left to right in doubles, `.max, 5, .min` gives 0 in one
    /// order and 5/3 in another. (Found by `DifferentialFetchTests`.)
    @Test func averagesAreTheSameInEveryOrder() throws {
        let integers: [Any] = [Int64.max, Int64(5), Int64.min]
        let mixed: [Any] = [1e300, 2.5, -1e300, Int64(1)]
        for values in [integers, mixed] {
            var averages: [Double] = []
            for order in [values, values.reversed(), [values[1], values[0]] + values.dropFirst(2)] {
                averages.append(try #require(try AggregateFunctions.average(order, in: "test") as? Double))
            }
            #expect(Set(averages.map(\.bitPattern)).count == 1, "\(averages)")
        }
        #expect(try AggregateFunctions.average(integers, in: "test") as? Double == 4.0 / 3.0)
    }

    @Test func statisticsOverACollectionOrTheArguments() throws {
        #expect(try call("sum:", [1, 2, 3]) as? Int64 == 6)
        #expect(try call("sum:", 1, 2.5) as? Double == 3.5)
        #expect(try call("sum:", []) as? Int64 == 0)
        #expect(try call("count:", [1, nil, 2]) as? Int64 == 2)
        #expect(try call("min:", [3, 1, 2]) as? Int64 == 1)
        #expect(try call("max:", ["a", "c", "b"]) as? String == "c")
        #expect(try call("min:", []) == nil)
        #expect(try call("average:", [1, 2]) as? Double == 1.5)
        #expect(try call("average:", []) == nil)
        #expect(try call("median:", [3, 1, 2]) as? Int64 == 2)
        #expect(try call("median:", [4, 1, 3, 2]) as? Double == 2.5)
        #expect(try call("stddev:", [2, 4, 4, 4, 5, 5, 7, 9]) as? Double == 2, "population standard deviation")
        let modes = try #require(try call("mode:", [1, 2, 2, 3, 3.0]) as? [Any?])
        #expect(modes.count == 2 && same(modes[0], 2) && same(modes[1], 3))
        #expect(throws: CoreDataError.self) { try call("sum:", ["a"]) }
        #expect(throws: CoreDataError.self) { try call("average:", [1, "b"]) }
        // Over a key path's collection.
        let row: [String: Any] = ["prices": [1.5, 2.5], "n": 4]
        #expect(try same(valueOf(T.fn("sum:", T.key("prices")), row), 4.0))
        #expect(try holds(T.fn("max:", T.key("prices")).lessThan(T.key("n")), row))
    }

    // MARK: - Bits, strings, dates

    @Test func bitwiseFunctions() throws {
        #expect(try call("bitwiseAnd:with:", 12, 10) as? Int64 == 8)
        #expect(try call("bitwiseOr:with:", 12, 10) as? Int64 == 14)
        #expect(try call("bitwiseXor:with:", 12, 10) as? Int64 == 6)
        #expect(try call("leftshift:by:", 1, 4) as? Int64 == 16)
        #expect(try call("leftshift:by:", 1, 64) as? Int64 == 0)
        #expect(try call("leftshift:by:", 1, -1) as? Int64 == 0, "a negative shift shifts the other way")
        #expect(try call("rightshift:by:", -16, 2) as? Int64 == -4)
        #expect(try call("rightshift:by:", -1, 100) as? Int64 == -1)
        #expect(try call("onesComplement:", 0) as? Int64 == -1)
        #expect(try call("leftshift:by:", 1, .int64(.min)) as? Int64 == 0)
        #expect(try call("rightshift:by:", -8, .int64(.min)) as? Int64 == 0)
        #expect(try call("leftshift:by:", -1, .int64(.max)) as? Int64 == 0)
        #expect(try call("bitwiseAnd:with:", 3.0, 1) as? Int64 == 1)
        #expect(throws: CoreDataError.self) { try call("bitwiseAnd:with:", 1.5, 1) }
    }

    @Test func stringFunctions() throws {
        #expect(try call("uppercase:", "straße") as? String == "STRASSE")
        #expect(try call("lowercase:", "ÀB") as? String == "àb")
        #expect(try call("length:", "é") as? Int64 == 1)
        #expect(try call("length:", "😀") as? Int64 == 2, "UTF-16 code units, as NSString")
        #expect(try call("noindex:", "x") as? String == "x")
        #expect(try holds(T.fn("uppercase:", T.key("s")).equalTo("ABC"), ["s": "abc"]))
    }

    @Test func datesAndNow() throws {
        let start = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(try call("add:to:", .date(start), 60) as? Date == start.addingTimeInterval(60))
        #expect(try call("add:to:", 60, .date(start)) as? Date == start.addingTimeInterval(60))
        #expect(try call("from:subtract:", .date(start), 60) as? Date == start.addingTimeInterval(-60))
        #expect(try call("from:subtract:", .date(start), .date(Date(timeIntervalSinceReferenceDate: 400))) as? Double == 600)
        #expect(try call("add:to:", .date(start), nil) == nil)
        #expect(throws: CoreDataError.self) { try call("add:to:", .date(start), .date(start)) }
        #expect(throws: CoreDataError.self) { try call("add:to:", .date(start), "x") }
        let now = try #require(try call("now") as? Date)
        #expect(Swift.abs(now.timeIntervalSinceNow) < 5)
        #expect(try holds(T.key("when").lessThan(T.fn("now")), ["when": start]))
    }

    // MARK: - CAST

    @Test func castsToDatesNumbersAndStrings() throws {
        func cast(_ value: CDValue, _ type: String) throws -> Any? { try call("castObject:toType:", value, .string(type)) }
        #expect(try cast(0, "NSDate") as? Date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(try cast(86400.5, "NSDate") as? Date == Date(timeIntervalSinceReferenceDate: 86400.5))
        #expect(try cast(.date(Date(timeIntervalSinceReferenceDate: 10)), "NSDate") as? Date == Date(timeIntervalSinceReferenceDate: 10))
        #expect(try cast("42", "NSNumber") as? Int64 == 42)
        #expect(try cast(" 2.5 ", "NSNumber") as? Double == 2.5)
        #expect(try cast("abc", "NSNumber") == nil)
        #expect(try cast(.date(Date(timeIntervalSinceReferenceDate: 10)), "NSNumber") as? Double == 10)
        #expect(try cast(7, "NSNumber") as? Int64 == 7)
        #expect(try cast("1.25", "NSDecimalNumber") as? Decimal == Decimal(string: "1.25"))
        #expect(try cast("1.25x", "NSDecimalNumber") == nil)
        #expect(try cast(3, "NSDecimalNumber") as? Decimal == 3)
        #expect(try cast(3.0, "NSString") as? String == "3")
        #expect(try cast(2.5, "NSString") as? String == "2.5")
        #expect(try cast(42, "NSString") as? String == "42")
        #expect(try cast(.date(Date(timeIntervalSinceReferenceDate: 0)), "NSString") as? String == "2001-01-01 00:00:00 +0000")
        #expect(try cast(.date(Date(timeIntervalSinceReferenceDate: 86400 * 365 + 3661)), "NSString") as? String == "2002-01-01 01:01:01 +0000")
        #expect(try cast(nil, "NSDate") == nil)
        #expect(throws: CoreDataError.self) { try cast("x", "NSDate") }
        #expect(throws: CoreDataError.self) { try cast(1, "Banana") }
        #expect(throws: CoreDataError.self) { try call("castObject:toType:", 1, 5) }
        #expect(throws: CoreDataError.self) { try cast(.date(Date(timeIntervalSinceReferenceDate: 1e300)), "NSString") }
        #expect(throws: CoreDataError.self) { try cast(.double(.infinity), "NSDecimalNumber") }
        // As Core Data predicates use it: a stored number of seconds compared with a date.
        let row: [String: Any] = ["stamp": 100.0]
        let asDate = T.fn("castObject:toType:", T.key("stamp"), T.const("NSDate"))
        #expect(try holds(asDate.equalTo(.date(Date(timeIntervalSinceReferenceDate: 100))), row))
    }
}
