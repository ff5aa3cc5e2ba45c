import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `@sum` over `Int64` extremes overflowed into a `Double` in memory, so its answer
/// depended on the order of the elements, while SQLite's `sum()` raised "integer
/// overflow". Integer totals are now exact whatever the order, and a total outside 64
/// bits is the same typed error in memory, in `evaluate(with:)` and in both stores.
@Suite struct SumOverflowTests {
    private static let overflow = CoreDataError.Code.validationNumberTooLarge

    @Test func integerTotalsAreExactInAnyOrder() throws {
        let sum = CDExpression.keyPath("values.@sum")
        for values: [Int64] in [[.max, 1, -1], [.max, -1, 1], [1, -1, .max], [.min, -1, 1, 1]] {
            let total = try sum.expressionValue(with: ["values": values])
            #expect(total as? Int64 == values.reduce(0, &+), "\(values)")
        }
        for values: [Int64] in [[.max, 1], [.min, -1], [.max, .max, -1]] {
            let error = try #require(throws: CoreDataError.self, "\(values)") { try sum.expressionValue(with: ["values": values]) }
            #expect(error.code == Self.overflow)
        }
        let predicate = try CDPredicate(format: "values.@sum > 0")
        #expect(throws: CoreDataError.self) { try predicate.evaluateThrowing(with: ["values": [Int64.max, 1]]) }
        // Doubles stay doubles; a mix follows the usual rules.
        #expect(try sum.expressionValue(with: ["values": [Double.greatestFiniteMagnitude, 1.0]]) as? Double == .greatestFiniteMagnitude)
        #expect(try sum.expressionValue(with: ["values": [Int64.max, 1, 0.5] as [Any]]) is Double)
    }

    /// A parent whose children hold `values` (int64), saved; the context is reset.
    private func parent(_ kind: StoreKind, _ values: [Int64]) throws -> TestStack {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            let parent = stack.insert("Sample", ["key": "p"])
            for (index, value) in values.enumerated() {
                _ = stack.insert("Sample", ["key": "c\(index)", "int64": value, "double": Double(value), "parent": parent])
            }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    @Test(arguments: StoreKind.allCases)
    func bothStoresGiveTheExactTotalOrTheSameError(kind: StoreKind) throws {
        let exact = try parent(kind, [.max, 1, -1])
        #expect(try exact.matching("children.@sum.int64 == %@", Int64.max) == ["p"])
        #expect(try exact.matching("sum:(children.int64) == %@", Int64.max) == ["p"])
        #expect(try exact.matching("children.@sum.double > 9e18") == ["p"])

        let overflowing = try parent(kind, [.max, 1])
        #expect(try overflowing.fetchError("children.@sum.int64 > 0").code == Self.overflow)
        // Whatever it is compared with (SQL once skipped the sum for a comparison with nil).
        #expect(try overflowing.fetchError("children.@sum.int64 < nil").code == Self.overflow)
        #expect(try overflowing.fetchError("children.@sum.int64 < 'text'").code == Self.overflow)
        // With a pending change the fetch evaluates in memory too: the same error.
        try overflowing.context.performAndWait {
            _ = overflowing.insert("Sample", ["key": "new"])
            let error = try #require(throws: CoreDataError.self) { try overflowing.context.fetch(overflowing.request("children.@sum.int64 > 0")) }
            #expect(error.code == Self.overflow)
        }
    }

    /// SQLite's own sum() also failed when only a running total overflowed.
    @Test(arguments: StoreKind.allCases)
    func aDictionarySumIsExactOrTheSameError(kind: StoreKind) throws {
        let exact = try parent(kind, [.max, 1, -1, .min, .min, 5])
        let grouped = FetchRequest<NSDictionary>(entityName: "Sample")
        grouped.resultType = .dictionaryResultType
        let exactTotal = ExpressionDescription(name: "total")
        exactTotal.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("int64")])
        let flags = ExpressionDescription(name: "flags")
        flags.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("flag")])
        grouped.propertiesToFetch = [exactTotal, flags]
        try exact.context.performAndWait {
            let row = try #require(try exact.context.fetchDictionaries(grouped).first)
            #expect(row["total"] as? Int64 == Int64.min + 4)
            #expect(row["flags"] == nil)
        }

        let stack = try parent(kind, [.max, 1])
        let total = ExpressionDescription(name: "total")
        total.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("int64")])
        let request = FetchRequest<NSDictionary>(entityName: "Sample")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [total]
        try stack.context.performAndWait {
            let error = try #require(throws: CoreDataError.self) { try stack.context.fetchDictionaries(request) }
            #expect(error.code == Self.overflow)
            request.predicate = try CDPredicate(format: "int64 < 10")
            #expect(try stack.context.fetchDictionaries(request).first?["total"] as? Int64 == 1)
        }
    }
}
