import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Documented limitations: behaviour that differs from the in-memory evaluator today,
/// kept visible so that a fix shows up here.
@Suite struct KnownLimitationTests {
    /// Decimal attributes live in a DECIMAL column (NUMERIC affinity, as Core Data's), so
    /// SQLite compares them in double precision: a constant that differs from a stored
    /// value only past the 15th significant digit matches it in the SQLite store, while
    /// the evaluator (exact `Decimal`) does not.
    @Test func sqliteStoreComparesDecimalsInDoublePrecision() throws {
        let stack = try TestStack(model: Models.samples(), kind: .sqlite)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "decimal": Decimal(string: "0.1")!])
            try stack.context.save()
            stack.context.reset()
        }
        let close = Decimal(string: "0.1000000000000000000001")!
        let keys = try stack.keys(stack.request("decimal == %@", [close]))
        let evaluated = try stack.context.performAndWait {
            try stack.context.fetch(stack.request()).filter { try CDPredicate(format: "decimal == %@", close).evaluate(with: $0) }
        }
        #expect(evaluated.isEmpty)
        withKnownIssue("SQLite store: decimal comparisons are made in double precision") {
            #expect(keys == [])
        }
    }
}
