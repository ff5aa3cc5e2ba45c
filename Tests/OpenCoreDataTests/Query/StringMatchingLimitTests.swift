import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `MATCHES` where ICU gives no answer — its backtracking stack overflows, or a pattern
/// backtracks catastrophically — is a typed error in memory and in both stores, never a
/// silent "no match".
@Suite struct StringMatchingLimitTests {
    private static let million = String(repeating: "a", count: 1_000_000)

    /// `(a|b)*` and `a*` match a million `a`s, but ICU's stack overflows: this answered false.
    @Test func aStackOverflowIsAnErrorInMemory() throws {
        let predicate = try CDPredicate(format: "SELF MATCHES '(a|b)*'")
        let error = try #require(throws: CoreDataError.self) { try predicate.evaluateThrowing(with: Self.million) }
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("8 MB backtracking stack"))
        #expect(throws: CoreDataError.self) { try CDPredicate(format: "SELF MATCHES 'a*'").evaluateThrowing(with: Self.million) }
        // A pattern ICU runs without backtracking still answers on the same subject.
        #expect(try CDPredicate(format: "SELF MATCHES '[ab]*'").evaluateThrowing(with: Self.million))
        #expect(try CDPredicate(format: "SELF MATCHES '(a|b)*'").evaluateThrowing(with: "abba"))
    }

    @Test(arguments: StoreKind.allCases)
    func aStackOverflowIsAnErrorInBothStores(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, [Self.million, "abba"])
        #expect(try stack.fetchError("string MATCHES '(a|b)*'").code == .invalidPredicate)
        #expect(try stack.matching("string MATCHES '[ab]*'") == ["s0", "s1"])
    }

    /// `(a+)+b` on forty `a`s would run for hours; it stops after the time limit.
    @Test(arguments: StoreKind.allCases)
    func catastrophicBacktrackingIsBounded(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, [String(repeating: "a", count: 40)])
        let start = ContinuousClock.now
        let error = try stack.fetchError("string MATCHES '(a+)+b'")
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("abandoned"))
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
