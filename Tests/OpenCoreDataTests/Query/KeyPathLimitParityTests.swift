import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Key paths the SQLite store cannot follow — longer than its 64-table join limit — and a
/// string subscript on a to-many (`children['a']`) were typed errors in SQLite but `[]`
/// in memory. Both are the same `.invalidPredicate` error in both stores and in
/// `evaluate(with:)`.
@Suite struct KeyPathLimitParityTests {
    private static func parents(_ count: Int) -> String {
        Array(repeating: "parent", count: count).joined(separator: ".")
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyPathPastTheJoinLimitIsTheSameErrorInBothStores(kind: StoreKind) throws {
        let (stack, _, _) = try TestStack.sampleChain(kind)
        let tooLong = "\(Self.parents(64)).key == 'x'"
        #expect(try stack.fetchError(tooLong).code == .invalidPredicate)
        #expect(try stack.matching("\(Self.parents(63)).key == 'top'") == [])
        #expect(try stack.matching("\(Self.parents(64)) == nil") == ["leaf", "mid", "root"])
        #expect(throws: CoreDataError.self) { try stack.keys(stack.request(sortedBy: ["\(Self.parents(64)).key"])) }
        // With a pending change the fetch evaluates in memory too: the same error.
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "new"])
            let error = try #require(throws: CoreDataError.self) { try stack.context.fetch(stack.request(tooLong)) }
            #expect(error.code == .invalidPredicate)
        }
    }

    @Test func aKeyPathPastTheJoinLimitIsAnErrorInMemory() throws {
        var nested: [String: Any] = ["key": "deep"]
        for _ in 0..<63 { nested = ["parent": nested] }
        #expect(try CDPredicate(format: "\(Self.parents(63)).key == 'deep'").evaluateThrowing(with: nested))
        let error = try #require(throws: CoreDataError.self) { try CDPredicate(format: "\(Self.parents(64)).key == 'deep'").evaluateThrowing(with: ["parent": nested]) }
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("at most 64"))
    }

    @Test(arguments: StoreKind.allCases)
    func aStringSubscriptOnAToManyIsTheSameErrorEverywhere(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        for format in ["children['a'] == 'x'", "children['key'] == 'c1'", "children[FIRST]['key'] == 'c1'"] {
            #expect(try stack.fetchError(format).code == .invalidPredicate, "\(format)")
        }
        try stack.context.performAndWait {
            let objects = try stack.context.fetch(stack.request())
            #expect(objects.count == 8)
            for object in objects {
                let error = try #require(throws: CoreDataError.self) { try CDPredicate(format: "children['a'] == 'x'").evaluateThrowing(with: object) }
                #expect(error.code == .invalidPredicate)
            }
        }
        // A dictionary is still read by key.
        #expect(try CDPredicate(format: "SELF['a'] == 1").evaluateThrowing(with: ["a": 1]))
    }
}
