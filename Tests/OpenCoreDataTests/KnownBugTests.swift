import Foundation
import Testing
@testable import OpenCoreData

/// Framework bugs the other suites found, one test each, on the store that has the bug
/// (the other store's correct behaviour is tested in the suite named). Each expectation
/// that fails today is wrapped in `withKnownIssue`: when a bug is fixed, its test fails
/// with "known issue was not recorded"; then move the test to its suite, unwrapped.
@Suite struct KnownBugTests {
    // MARK: - In-memory store: predicates over stored rows

    /// `parent == %@` and `SELF == %@` never match in the in-memory store (and `!=` matches
    /// everything): stored rows stand for themselves, not for their object IDs.
    @Test func inMemoryStoreComparesObjectsWithObjectIDs() throws {
        withKnownIssue("In-memory store: to-one and SELF comparisons with objects never match") {
            try FetchRequestTests.checkObjectComparisons(.inMemory)
        }
    }

    /// Sorting on the to-one `parent` itself: the SQLite store and the evaluator order by
    /// the related object's ID; the in-memory store sorts every related row as equal.
    @Test func inMemoryStoreSortsOnAToOneRelationshipByObjectID() throws {
        let (stack, _, _) = try TestStack.sampleChain(.inMemory)
        let keys = try stack.keys(stack.request(sortedBy: ["parent", "key"]))
        withKnownIssue("In-memory store: sorting on a to-one relationship ignores the related object") {
            #expect(keys == ["root", "mid", "leaf"])
        }
    }

    /// An unknown key in a predicate reads as nil in the in-memory store instead of throwing.
    @Test func inMemoryStoreRejectsUnknownPredicateKeys() throws {
        for format in ["nosuch == 1", "parent.nosuch == 'x'", "key == 'k1' OR nosuch == nil"] {
            let stack = try TestStack.tenSamples(.inMemory)
            withKnownIssue("In-memory store: unknown predicate key '\(format)' does not throw") {
                let request = try stack.request(format)
                #expect(throws: CoreDataError.self) { try stack.keys(request) }
            }
        }
    }

    /// With an unsaved insert, the same fetch evaluates the predicate on the inserted
    /// object, whose `value(forKey:)` traps on the unknown key: the process crashes.
    @Test func inMemoryStoreUnknownPredicateKeyWithPendingInsertDoesNotCrash() async {
        await withKnownIssue("In-memory store: unknown predicate key with a pending insert traps") {
            await #expect(processExitsWith: .success) {
                let stack = try TestStack(model: Models.samples(), kind: .inMemory)
                let threw = stack.context.performAndWait {
                    _ = stack.insert("Sample", ["key": "new"])
                    do { _ = try stack.context.fetch(stack.request("nosuch == 1")) } catch { return error is CoreDataError }
                    return false
                }
                if !threw { exit(1) }
            }
        }
    }

    /// Sorting on a to-many key path is refused by the SQLite store (`.invalidFetchRequest`)
    /// but silently ignored by the in-memory store.
    @Test func inMemoryStoreRejectsSortingOnAToManyKeyPath() throws {
        let stack = try TestStack.tenSamples(.inMemory)
        withKnownIssue("In-memory store: sorting on 'children.key' does not throw") {
            #expect(throws: CoreDataError.self) { try stack.keys(stack.request(sortedBy: ["children.key"])) }
        }
    }

    /// Two objects with nil in a uniquely constrained attribute: the SQLite store accepts
    /// them (NULLs are distinct in a unique index); the in-memory store throws
    /// `.constraintViolation`.
    @Test func inMemoryStoreUniquenessTreatsNilsAsDistinct() throws {
        let stack = try TestStack(model: Models.allTypes(), kind: .inMemory)
        stack.context.performAndWait {
            _ = stack.insert("Thing", ["name": "one"])
            _ = stack.insert("Thing", ["name": "two"])
            withKnownIssue("In-memory store: two nil values violate a uniqueness constraint") {
                try stack.context.save()
            }
        }
    }

    /// The in-memory store saves a transformable value without transforming it, so a
    /// value whose transformer is not registered is saved there but refused by SQLite.
    @Test func inMemoryStoreRefusesValuesItsTransformerCannotStore() throws {
        withKnownIssue("In-memory store: transformable values are saved without their transformer") {
            try TransformableTests.checkUnregisteredTransformer(.inMemory)
        }
    }

    // MARK: - SQLite store

    /// `uri == %@` with a String: the in-memory store (and the evaluator) match nothing; the
    /// SQLite store throws `.validationWrongType` from `fetch`.
    @Test func sqliteStoreComparesAURIWithAString() throws {
        let stack = try TestStack(model: Models.samples(), kind: .sqlite)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "uri": URL(string: "https://example.org/")!])
            try stack.context.save()
            stack.context.reset()
        }
        withKnownIssue("SQLite store: comparing a URI attribute with a String throws validationWrongType") {
            let keys = try stack.keys(stack.request("uri == %@", ["https://example.org/"]))
            #expect(keys == [])
        }
    }

    /// Decimal constants are compared as doubles in SQL (bound as text, converted by the
    /// column's NUMERIC affinity), so a constant that differs from a stored value only past
    /// the 15th digit matches it, which the evaluator and the in-memory store do not.
    @Test func sqliteStoreComparesDecimalsExactly() throws {
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

    /// A string with a NUL character is cut at the NUL when saved, and a predicate constant
    /// with one is cut too (so it matches the cut strings).
    @Test func sqliteStoreKeepsStringsWithNULCharacters() throws {
        let stack = try TestStack(model: Models.samples(), kind: .sqlite)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "string": "x\u{0}y"])
            _ = stack.insert("Sample", ["key": "b", "string": "x"])
            try stack.context.save()
        }
        let fresh = try stack.reopened()
        let read = try fresh.context.performAndWait { try fresh.fetch("Sample", "key == 'a'").first?.value(forKey: "string") as? String }
        withKnownIssue("SQLite store: text is bound and read as C strings, cut at NUL") {
            #expect(read == "x\u{0}y")
            let keys = try fresh.keys(fresh.request("string == %@", ["x\u{0}y"]))
            #expect(keys == ["a"])
        }
    }

    /// A NaN double is saved without error but reads back as nil (SQLite stores NaN as
    /// NULL), and then matches `double == nil`; the in-memory store keeps NaN.
    @Test func sqliteStoreKeepsNaNOrRefusesIt() throws {
        let stack = try TestStack(model: Models.samples(), kind: .sqlite)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "double": Double.nan])
            try stack.context.save()
        }
        let fresh = try stack.reopened()
        let read = try fresh.context.performAndWait { try fresh.fetch("Sample").first?.value(forKey: "double") }
        withKnownIssue("SQLite store: NaN is silently saved as NULL") {
            #expect((read as? Double)?.isNaN == true)
        }
    }
}
