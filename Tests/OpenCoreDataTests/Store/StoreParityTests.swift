import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Cases where the two stores once disagreed (found by the differential and fetch
/// suites): each now behaves the same on both, as Core Data would.
@Suite struct StoreParityTests {
    /// Sorting on the to-one `parent` itself orders by the related object's ID.
    @Test(arguments: StoreKind.allCases)
    func sortingOnAToOneRelationshipOrdersByObjectID(kind: StoreKind) throws {
        let (stack, _, _) = try TestStack.sampleChain(kind)
        let keys = try stack.keys(stack.request(sortedBy: ["parent", "key"]))
        #expect(keys == ["root", "mid", "leaf"])
    }

    /// An unknown key in a predicate is a typed error from the fetch, with or without
    /// pending changes (which make the fetch evaluate in memory too).
    @Test(arguments: StoreKind.allCases)
    func unknownPredicateKeysThrow(kind: StoreKind) throws {
        for format in ["nosuch == 1", "parent.nosuch == 'x'", "key == 'k1' OR nosuch == nil", "key.length == 1",
                       "ANY children.nosuch == 1", "children.@sum.nosuch == 1", "SUBQUERY(children, $c, $c.nosuch == 1).@count > 0",
                       "SUBQUERY(children, $c, SUBQUERY($c.children, $g, $g.parent.nosuch == 1).@count > 0).@count > 0",
                       "abs(nosuch) == 1", "TERNARY(nosuch == 1, 1, 2) == 1", "{1, nosuch} CONTAINS 1", "children.@count.key == 1"] {
            let stack = try TestStack.tenSamples(kind)
            let request = try stack.request(format)
            #expect(throws: CoreDataError.self, "\(format)") { try stack.keys(request) }
            try stack.context.performAndWait {
                _ = stack.insert("Sample", ["key": "new"])
                let error = try #require(throws: CoreDataError.self) { try stack.context.fetch(request) }
                #expect(error.code == .invalidFetchRequest)
            }
        }
    }

    /// A long OR chain (and a long AND chain) stays within SQLite's expression depth.
    @Test(arguments: StoreKind.allCases)
    func longCompoundPredicatesRun(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        let terms = (0..<5_000).map { CDComparisonPredicate(leftExpression: .keyPath("int64"), rightExpression: .constant(.int64(Int64($0 * 3))), type: .equalTo) }
        let any = CDCompoundPredicate(orPredicateWithSubpredicates: terms)
        let all = CDCompoundPredicate(andPredicateWithSubpredicates: terms.map { CDCompoundPredicate(notPredicateWithSubpredicate: $0) })
        #expect(try stack.matching(any) == ["k0", "k3", "k6", "k9"])
        #expect(try stack.matching(all) == ["k1", "k2", "k4", "k5", "k7", "k8"])
    }

    /// Sorting on a to-many key path is refused.
    @Test(arguments: StoreKind.allCases)
    func sortingOnAToManyKeyPathThrows(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        #expect(throws: CoreDataError.self) { try stack.keys(stack.request(sortedBy: ["children.key"])) }
    }

    /// nil never clashes in a uniqueness constraint (NULLs are distinct in a unique index).
    @Test(arguments: StoreKind.allCases)
    func uniquenessTreatsNilsAsDistinct(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Thing", ["name": "one"])
            _ = stack.insert("Thing", ["name": "two"])
            try stack.context.save()
            #expect(try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Thing")) == 2)
        }
    }

    /// A URI attribute compared with a String matches nothing (a String is not a URL).
    @Test(arguments: StoreKind.allCases)
    func aURIComparedWithAStringMatchesNothing(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "uri": URL(string: "https://example.org/")!])
            try stack.context.save()
            stack.context.reset()
        }
        #expect(try stack.keys(stack.request("uri == %@", ["https://example.org/"])) == [])
        #expect(try stack.keys(stack.request("uri == %@", [URL(string: "https://example.org/")!])) == ["a"])
    }

    /// Strings with a NUL character are kept whole, saved and in predicates.
    @Test(arguments: StoreKind.allCases)
    func stringsWithNULCharactersAreKeptWhole(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "string": "x\u{0}y"])
            _ = stack.insert("Sample", ["key": "b", "string": "x"])
            try stack.context.save()
        }
        let reader = kind == .sqlite ? try stack.reopened() : stack
        let read = try reader.context.performAndWait {
            try reader.fetch("Sample", "key == 'a'").first?.value(forKey: "string") as? String
        }
        #expect(read == "x\u{0}y")
        #expect(try reader.keys(reader.request("string == %@", ["x\u{0}y"])) == ["a"])
    }

    /// NaN cannot be stored (SQLite would turn it into NULL): save refuses it, typed.
    @Test(arguments: StoreKind.allCases)
    func notANumberIsRefusedAtSave(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            let sample = stack.insert("Sample", ["key": "a", "double": Double.nan])
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .validationWrongType)
            #expect(error.key == "double")
            sample.setValue(Double.infinity, forKey: "double")
            try stack.context.save()
        }
    }
}
