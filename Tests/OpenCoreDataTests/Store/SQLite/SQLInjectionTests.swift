import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Hostile values as predicate constants, in every operator: both stores answer as the
/// evaluator does, and the SQLite file's schema and rows are unchanged afterwards —
/// values are only ever bound parameters, never SQL text.
@Suite struct SQLInjectionTests {
    static let corpus: [String] = [
        "'; DROP TABLE ZSAMPLE; --", "\" OR 1=1 --", "' OR '1'='1", "1); DELETE FROM ZSAMPLE; --",
        "'", "\"", "''", ")", "?", "?1", ":name", "@x", "$x", "%", "_", "*", "\\", "%_*?\\", "a%", "_b",
        "x\u{0}y", "\u{0}", "🙂👨‍👩‍👧", "ZSAMPLE", "Z_PK", "ocd_string(0, 0, 'a', 'a')",
        String(repeating: "x", count: 20_000) + "'",
    ]
    static let operators = ["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN"]

    /// Samples holding every corpus string, and a few ordinary ones.
    static func stack(_ kind: StoreKind) throws -> TestStack {
        try TestStack.strings(kind, corpus + ["plain", "x", "a%b", "a_b", "abc", nil])
    }

    @Test(arguments: StoreKind.allCases)
    func hostileConstantsMatchTheEvaluator(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        let before = try kind == .sqlite ? Self.snapshot(stack) : []
        let objects = try stack.context.performAndWait { try stack.context.fetch(stack.request(sortedBy: ["key"])) }
        var failures: [String] = []
        for value in Self.corpus {
            for op in Self.operators {
                for options in ["", "[c]", "[cd]"] {
                    let format = op == "IN" ? "%@ IN\(options) string" : "string \(op)\(options) %@"
                    let predicate = try CDPredicate(format: format, argumentArray: [value])
                    let expected: [String]? = stack.context.performAndWait {
                        try? objects.filter { try predicate.evaluateThrowing(with: $0) }.map { $0.value(forKey: "key") as? String ?? "" }
                    }
                    let fetched = try? stack.matching(predicate)
                    if fetched != expected { failures.append("\(format) with \(value.prefix(40).debugDescription): \(String(describing: fetched)) ≠ \(String(describing: expected))") }
                }
            }
            let list = try CDPredicate(format: "string IN %@", argumentArray: [[value, "plain"]])
            if try stack.matching(list) != ["s\(Self.corpus.firstIndex(of: value)!)", "s\(Self.corpus.count)"].sorted() {
                failures.append("IN a list with \(value.prefix(40).debugDescription)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements, first: \(failures.prefix(5))")
        if kind == .sqlite { #expect(try Self.snapshot(stack) == before) }
    }

    /// Keys and function names are never SQL text either: unknown ones are typed errors.
    @Test(arguments: StoreKind.allCases)
    func hostileKeysAndFunctionNamesAreTypedErrors(kind: StoreKind) throws {
        let stack = try Self.stack(kind)
        let before = try kind == .sqlite ? Self.snapshot(stack) : []
        for key in ["string; DROP TABLE ZSAMPLE", "string' OR '1'='1", "Z_PK", "t0.ZSTRING"] {
            #expect(try stack.fetchError("%K == 1", key).code == .invalidFetchRequest, "\(key)")
        }
        let function = CDExpression(forFunction: "x'); DROP TABLE ZSAMPLE; --", arguments: [.keyPath("int64")])
        let predicate = CDComparisonPredicate(leftExpression: function, rightExpression: .constant(1), type: .equalTo)
        let error = try #require(throws: CoreDataError.self) { try stack.matching(predicate) }
        #expect(error.code == .invalidPredicate)
        if kind == .sqlite { #expect(try Self.snapshot(stack) == before) }
    }

    /// The schema and every row, as plain `sqlite3` sees them.
    static func snapshot(_ stack: TestStack) throws -> [String] {
        let inspector = SQLiteInspector(try #require(stack.storeURL))
        return try inspector.strings("SELECT coalesce(sql, name) FROM sqlite_master ORDER BY name")
            + inspector.strings("SELECT Z_PK || '|' || ZKEY || '|' || coalesce(hex(ZSTRING), 'nil') FROM ZSAMPLE ORDER BY Z_PK")
    }
}
