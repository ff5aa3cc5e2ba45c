import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// String operators and `[c]`/`[d]` in fetches: the SQLite store runs them through
/// functions registered on its connection that call `StringMatching`, so both stores
/// give the same answers, and the functions never reach the file's schema.
@Suite struct SQLStringFunctionTests {
    static let strings: [String?] = ["Apple", "apple pie", "Ápfel", "straße", "STRASSE", "a*b", "a%b_c", nil]

    @Test(arguments: StoreKind.allCases)
    func affixesAndContains(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        #expect(try stack.matching("string BEGINSWITH 'app'") == ["s1"])
        #expect(try stack.matching("string BEGINSWITH[c] 'app'") == ["s0", "s1"])
        #expect(try stack.matching("string BEGINSWITH[cd] 'ap'") == ["s0", "s1", "s2"])
        #expect(try stack.matching("string ENDSWITH[c] 'PIE'") == ["s1"])
        #expect(try stack.matching("string CONTAINS 'b'") == ["s5", "s6"])
        #expect(try stack.matching("string CONTAINS[cd] 'PF'") == ["s2"])
        #expect(try stack.matching("string ==[c] 'strasse'") == ["s3", "s4"])
        #expect(try stack.matching("string ==[cd] 'apfel'") == ["s2"])
    }

    @Test(arguments: StoreKind.allCases)
    func likeUsesStarAndQuestionMarkOnly(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        #expect(try stack.matching("string LIKE 'a*b'") == ["s5"])
        #expect(try stack.matching("string LIKE %@", "a\\*b") == ["s5"])
        #expect(try stack.matching("string LIKE '*%*'") == ["s6"])
        #expect(try stack.matching("string LIKE '*_*'") == ["s6"])
        #expect(try stack.matching("string LIKE[c] 'a?ple*'") == ["s0", "s1"])
        #expect(try stack.matching("string LIKE '*'") == ["s0", "s1", "s2", "s3", "s4", "s5", "s6"])
    }

    @Test(arguments: StoreKind.allCases)
    func matchesIsAWholeStringRegularExpression(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        #expect(try stack.matching("string MATCHES '[a-z ]+'") == ["s1"])
        #expect(try stack.matching("string MATCHES[c] 'str.*'") == ["s3", "s4"])
        #expect(try stack.matching("string MATCHES 'pie'") == [])
    }

    /// A bad pattern is a typed `.invalidPredicate` from the fetch, not an SQLite error.
    @Test(arguments: StoreKind.allCases)
    func aBadRegularExpressionIsATypedError(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        #expect(try stack.fetchError("string MATCHES '('").code == .invalidPredicate)
        // Checked for a row whose string is nil too, as in memory.
        #expect(try stack.fetchError("string == nil AND string MATCHES '['").code == .invalidPredicate)
        // The connection is still usable afterwards.
        #expect(try stack.matching("string MATCHES 'a.*'") == ["s1", "s5", "s6"])
    }

    /// String operators on nil or on non-string values are false; an empty string is never
    /// a prefix, suffix or part (NSString's rule).
    @Test(arguments: StoreKind.allCases)
    func stringOperatorsOnNilOrNumbersAreFalse(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        #expect(try stack.matching("string BEGINSWITH ''") == [])
        #expect(try stack.matching("string CONTAINS[c] ''") == [])
        #expect(try stack.matching("string ENDSWITH ''") == [])
        #expect(try stack.matching("int64 BEGINSWITH '1'") == [])
        #expect(try stack.matching("string CONTAINS 1") == [])
        #expect(try stack.matching("NOT string ENDSWITH 'e'") == ["s2", "s4", "s5", "s6", "s7"])
    }

    /// `IN` a string is a substring test; `CONTAINS` on a string the same, reversed.
    @Test(arguments: StoreKind.allCases)
    func inAndContainsWithStrings(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        #expect(try stack.matching("'pie' IN string") == ["s1"])
        #expect(try stack.matching("string IN 'Apple pie and more'") == ["s0"])
        #expect(try stack.matching("string IN[c] 'an APPLE PIE'") == ["s0", "s1"])
        #expect(try stack.matching("string IN {'Apple', 'x'}") == ["s0"])
        #expect(try stack.matching("string IN[c] {'APPLE', 'Strasse'}") == ["s0", "s3", "s4"])
    }

    /// The registered functions are direct-only: nothing in the schema names them, and a
    /// plain SQLite connection reads the file after they ran.
    @Test func theStoreFileNeverReferencesTheFunctions() throws {
        let stack = try TestStack.strings(.sqlite, Self.strings)
        #expect(try stack.matching("string LIKE[c] 'a*' OR string IN {'x'}") == ["s0", "s1", "s5", "s6"])
        let request = try stack.request(sortedBy: ["key"])
        request.sortDescriptors = [CDSortDescriptor(key: "string", selector: .localizedStandardCompare)]
        _ = try stack.keys(request)
        let inspector = SQLiteInspector(try #require(stack.storeURL))
        let schema = try inspector.strings("SELECT coalesce(sql, '') FROM sqlite_master")
        #expect(!schema.isEmpty)
        #expect(schema.allSatisfy { !$0.lowercased().contains("ocd_") })
        #expect(try inspector.strings("SELECT count(*) FROM ZSAMPLE") == ["8"])
        #expect(throws: SQLiteInspector.InspectorError.self) { try inspector.strings("SELECT ocd_string(0, 0, 'a', 'a')") }
    }

    /// SQLite refuses the functions anywhere but in the store's own statements: a view in
    /// the file using one cannot run, even on the store's connection.
    @Test func theFunctionsAreDirectOnly() throws {
        let stack = try TestStack.strings(.sqlite, Self.strings)
        let store = try #require(stack.coordinator.persistentStores.first?.backend as? SQLiteStore)
        try store.connection.execute("CREATE VIEW probe AS SELECT ocd_string(0, 0, 'a', 'a') AS matched")
        defer { try? store.connection.execute("DROP VIEW probe") }
        let error = try #require(throws: CoreDataError.self) { try store.connection.scalar("SELECT matched FROM probe") }
        #expect(error.message.contains("unsafe use"))
        #expect(try store.connection.scalar("SELECT ocd_string(0, 0, 'a', 'a')") == .integer(1))
    }
}
