import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Behaviour Apple documents for predicates, checked on both stores. Sources:
/// Predicate Programming Guide, "Predicate Format String Syntax" (PPG below);
/// `NSComparisonPredicate.Modifier`; `NSExpression`'s function list.
@Suite struct DocumentedBehaviourTests {
    /// PPG: "BETWEEN — the left-hand expression is between, or equal to either of, the
    /// values specified in the right-hand side" (bounds inclusive).
    /// PPG: "LIKE — ? and * are allowed as wildcard characters, where ? matches 1 character
    /// and * matches 0 or more characters". "MATCHES — regex-style comparison according to
    /// ICU" (the whole string must match).
    @Test(arguments: StoreKind.allCases)
    func stringOperatorsAndBounds(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, ["abc", "ABC", "abbc", nil, "a10", "a2", "b", ""])
        #expect(try stack.matching("int64 BETWEEN {1, 3}") == ["s1", "s2", "s3"])
        #expect(try stack.matching("string LIKE 'a?c'") == ["s0"])
        #expect(try stack.matching("string LIKE 'a*c'") == ["s0", "s2"])
        #expect(try stack.matching("string LIKE[c] 'ABC'") == ["s0", "s1"])
        #expect(try stack.matching("string MATCHES 'b'") == ["s6"])
        #expect(try stack.matching("string MATCHES 'a.c'") == ["s0"])
        #expect(try stack.matching("string MATCHES[c] 'A.C'") == ["s0", "s1"])
        #expect(try stack.matching("string IN 'xabcx'") == ["s0", "s6"])
        #expect(try stack.matching("string ==[n] 'abc'") == ["s0"])
        #expect(try stack.matching("TRUEPREDICATE").count == 8)
        #expect(try stack.matching("FALSEPREDICATE").isEmpty)
    }

    /// PPG: "nil ... a != nil" matches every non-nil value, and a comparison with nil on one
    /// side is false, so its negation holds for rows where the key is nil — in SQL too,
    /// despite SQL's three-valued logic.
    @Test(arguments: StoreKind.allCases)
    func nilAndNegation(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, ["abc", nil])
        #expect(try stack.matching("string != 'abc'") == ["s1"])
        #expect(try stack.matching("string == nil") == ["s1"])
        #expect(try stack.matching("string != nil") == ["s0"])
        #expect(try stack.matching("string > nil").isEmpty)
        for format in ["NOT string IN {'x'}", "NOT string BETWEEN {'x', 'y'}", "NOT string LIKE 'x*'", "NOT string MATCHES 'x.*'",
                       "NOT string CONTAINS 'x'", "NOT string ENDSWITH[cd] 'x'", "NOT string ==[c] 'x'", "NOT string >= 'x'",
                       "NOT length(string) > 5", "NOT string IN 'xyz'", "NOT 'x' IN string", "NOT uppercase(string) == 'X'",
                       "NOT (string == 'x' OR string == 'y')", "NOT (string == 'x' AND int64 >= 0)"] {
            #expect(try stack.matching(format) == ["s0", "s1"], "\(format)")
        }
    }

    /// `NSComparisonPredicate.Modifier`: ANY "returns true when it finds the first match —
    /// or false if no match is found"; ALL "returns false when it finds the first
    /// mismatch — or true if all match" (so true on an empty collection). PPG: SOME is
    /// ANY, NONE is NOT (ANY …).
    @Test(arguments: StoreKind.allCases)
    func modifiers(kind: StoreKind) throws {
        let stack = try TestStack.family(kind)
        let leaves = ["c2", "c3", "c4", "g1", "p3"]
        #expect(try stack.matching("NONE children.int64 > 1") == leaves)
        #expect(try stack.matching("SOME children.int64 > 4") == ["c1", "p2"])
        #expect(try stack.matching("ALL children.int64 > 4") == (leaves + ["c1", "p2"]).sorted())
        #expect(try stack.matching("children.@sum.int64 == 0") == leaves)
        #expect(try stack.matching("children.@max.int64 == nil") == leaves)
        #expect(try stack.matching("%K == 'Alpha'", "parent.string") == ["c1", "c2", "c3"])
        #expect(try stack.matching("parent.string != 'Alpha'") == ["c4", "g1", "p1", "p2", "p3"])
        #expect(try stack.matching("NOT parent.int64 < 15") == ["c4", "p1", "p2", "p3"])
    }

    /// PPG, format specifiers: `%d` takes an integer (a Bool is 0 or 1); `%K` a key path.
    /// CAST(n, 'NSDate') is seconds since the reference date (2001-01-01).
    @Test(arguments: StoreKind.allCases)
    func argumentsAndDates(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, ["abc", nil])
        #expect(try stack.matching("%K == %d", "int64", true) == ["s1"])
        #expect(try stack.fetchError("string == $UNBOUND").code == .invalidPredicate)
        let dates = try TestStack(model: Models.samples(), kind: kind)
        try dates.context.performAndWait {
            _ = dates.insert("Sample", ["key": "d0", "date": Date(timeIntervalSinceReferenceDate: 0)])
            _ = dates.insert("Sample", ["key": "d1", "date": Date(timeIntervalSinceReferenceDate: 100)])
            try dates.context.save()
            dates.context.reset()
        }
        #expect(try dates.matching("date == CAST(0, 'NSDate')") == ["d0"])
        #expect(try dates.matching("date > CAST(50.0, 'NSDate')") == ["d1"])
        #expect(try dates.matching("date BETWEEN {CAST(0, 'NSDate'), CAST(100, 'NSDate')}") == ["d0", "d1"])
    }

    /// CAST(x, 'NSString') of a constant folds to the same text as the cast of a stored
    /// value (`CastEvaluation`): `CAST(1.5, 'NSString')` was refused at parse time while
    /// `CAST(double, 'NSString')` of a stored 1.5 gave "1.5".
    @Test(arguments: StoreKind.allCases)
    func castOfConstantsToString(kind: StoreKind) throws {
        #expect(try CDPredicate(format: "CAST(1.5, 'NSString') == 'x'").predicateFormat == "\"1.5\" == \"x\"")
        #expect(try CDPredicate(format: "CAST(true, 'NSString') == '1'").evaluate(with: nil))
        #expect(try CDPredicate(format: "CAST(CAST(0, 'NSDate'), 'NSString') == '2001-01-01 00:00:00 +0000'").evaluate(with: nil))
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "a", "double": 1.5, "string": "1.5"])
            _ = stack.insert("Sample", ["key": "b", "double": 2.0, "string": "2"])
            try stack.context.save()
            stack.context.reset()
        }
        #expect(try stack.matching("string == CAST(1.5, 'NSString')") == ["a"])
        #expect(try stack.matching("CAST(double, 'NSString') == CAST(1.5, 'NSString')") == ["a"])
        #expect(try stack.matching("CAST(double, 'NSString') == string") == ["a", "b"])
    }
}

/// Sorting as `NSSortDescriptor` documents it.
@Suite struct DocumentedSortingTests {
    /// NSString: `caseInsensitiveCompare(_:)` is `compare(_:options: .caseInsensitive)`,
    /// which reports "a" and "A" as `.orderedSame`; `NSSortDescriptor.compare(_:to:)`
    /// returns the selector's result. Such ties keep store order (insertion order here) on
    /// both stores, like any other tie, instead of putting upper case first.
    /// Nil sorts first ascending and last descending (SQLite's NULL order, which Core Data
    /// keeps, and `NSSortDescriptor`'s in memory).
    @Test(arguments: StoreKind.allCases)
    func equalFoldedStringsTieAndNilsComeFirst(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, ["b", nil, "B", "a", "A", nil, "a10", "a2"])
        func keys(_ selector: CDSortDescriptor.Selector, ascending: Bool = true) throws -> [String] {
            let request = FetchRequest<ManagedObject>(entityName: "Sample")
            request.sortDescriptors = [CDSortDescriptor(key: "string", ascending: ascending, selector: selector)]
            return try stack.keys(request)
        }
        #expect(try keys(.compare) == ["s1", "s5", "s4", "s2", "s3", "s6", "s7", "s0"])
        #expect(try keys(.compare, ascending: false).suffix(2) == ["s1", "s5"])
        #expect(try keys(.caseInsensitiveCompare) == ["s1", "s5", "s3", "s4", "s6", "s7", "s0", "s2"])
        #expect(try keys(.localizedCaseInsensitiveCompare) == ["s1", "s5", "s3", "s4", "s6", "s7", "s0", "s2"])
        #expect(try keys(.localizedStandardCompare) == ["s1", "s5", "s3", "s4", "s7", "s6", "s0", "s2"])
        #expect(try keys(.caseInsensitiveCompare, ascending: false) == ["s0", "s2", "s7", "s6", "s3", "s4", "s1", "s5"])

        let descriptor = CDSortDescriptor(key: "name", selector: .caseInsensitiveCompare)
        #expect(descriptor.compare(["name": "a"], ["name": "A"]) == .orderedSame)
        #expect(CDSortDescriptor(key: "name").compare(["name": "a"], ["name": "A"]) == .orderedDescending)
    }
}

extension DocumentedSortingTests {
    /// Grouped and distinct dictionaries have no row order to fall back on when a selector
    /// finds two groups equal: both stores then order them by `.compare` (bytes).
    @Test(arguments: StoreKind.allCases)
    func groupsTheSelectorFindsEqualOrderTheSameOnBothStores(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, ["b", "a", "B", "A", "a"])
        let request = FetchRequest<NSDictionary>(entityName: "Sample")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["string"]
        request.propertiesToGroupBy = ["string"]
        request.sortDescriptors = [CDSortDescriptor(key: "string", selector: .caseInsensitiveCompare)]
        func strings() throws -> [String?] {
            try stack.context.performAndWait { try stack.context.fetchDictionaries(request).map { $0["string"] as? String } }
        }
        #expect(try strings() == ["A", "a", "B", "b"])
        request.propertiesToGroupBy = nil
        request.returnsDistinctResults = true
        request.sortDescriptors = [CDSortDescriptor(key: "string", ascending: false, selector: .caseInsensitiveCompare)]
        #expect(try strings() == ["b", "B", "a", "A"])
    }
}
