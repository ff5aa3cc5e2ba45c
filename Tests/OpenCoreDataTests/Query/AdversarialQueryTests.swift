import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Odd but valid queries: both stores give the same answer or the same typed error
/// (review1 findings).
@Suite struct AdversarialQueryTests {
    private static func outcome(_ body: () throws -> [String]) -> String {
        do { return try body().joined(separator: ",") } catch let error as CoreDataError { return "error \(error.code) \(error.message)" } catch { return "other error \(error)" }
    }

    /// min:/max:/sum:/average: of a to-one relationship gave an object ID (min:) or 0.0
    /// (sum:) in memory but the primary key's Int64 (1, and the keys' sum, 5) in SQLite.
    @Test(arguments: StoreKind.allCases)
    func aggregatingARelationshipInADictionaryFetchIsAnError(kind: StoreKind) throws {
        let (stack, _, _) = try TestStack.sampleChain(kind)
        stack.context.performAndWait {
            for function in ["min:", "max:", "sum:", "average:", "count:"] {
                let description = ExpressionDescription(name: "value")
                description.expression = CDExpression(forFunction: function, arguments: [.keyPath("parent")])
                let request = FetchRequest<NSDictionary>(entityName: "Sample")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = [description]
                let result = Self.outcome { try stack.context.fetchDictionaries(request).map { "\($0["value"] ?? "nil")" } }
                if function == "count:" {
                    #expect(result == "2")
                } else {
                    #expect(result.hasPrefix("error \(CoreDataError.Code.invalidFetchRequest)"), "\(function): \(result)")
                }
            }
        }
    }

    /// `#Predicate { $0.title.contains("") }` and `starts(with: "")` are true for every
    /// title in Swift, but were lowered to `CONTAINS ""` / `BEGINSWITH ""`, which match
    /// nothing: the fetch disagreed with the predicate's own evaluation.
    @Test(arguments: StoreKind.allCases)
    func foundationEmptyPatternsMatchAsInSwift(kind: StoreKind) throws {
        let stack = try ErrandModel.stack(kind)
        let empty = ""
        let all = ["Bank", "Bread", "Eggs", "Milk", "Shop"]
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.title.contains(empty) })) == all)
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.title.starts(with: empty) })) == all)
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.title.contains($0.note ?? "") })) == ["Bank", "Bread", "Milk"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.parent?.title.starts(with: empty) ?? false })) == ["Bread", "Eggs", "Milk"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.title.contains("il") })) == ["Milk"])
        let predicate = #Predicate<Errand> { $0.title.contains($0.note ?? "") }
        let lowered = try CDPredicate(predicate)
        try stack.context.performAndWait {
            for errand in try stack.context.fetch(FetchRequest<Errand>(entityName: "Errand")) {
                #expect(lowered.evaluate(with: errand) == (try predicate.evaluate(errand)))
            }
        }
    }

    /// The outcome of fetching `Sample`s matching `format` from each store (SQLite first,
    /// then in memory): the keys found, or the typed error's code.
    private static func outcomes(_ format: String) throws -> [String] {
        let predicate = try CDPredicate(format: format)
        return try StoreKind.allCases.map { kind in
            let (stack, _, _) = try TestStack.sampleChain(kind)
            return stack.context.performAndWait {
                do {
                    let request = try stack.request(sortedBy: ["key"])
                    request.predicate = predicate
                    return try stack.keys(request).joined(separator: ",")
                } catch let error as CoreDataError {
                    return "error \(error.code)"
                } catch {
                    return "other error \(error)"
                }
            }
        }
    }

    /// Predicates the stores used to disagree on (one answered, the other failed): both
    /// now fail with the same typed error.
    @Test(arguments: [
        // Memory reads `key.@count` from each child, and `@count` of a string is an
        // error (as in Foundation); SQL counted the children.
        "children.@distinctUnionOfObjects.key.@count == 1",
        // Memory cannot cast a string to a date; SQL folded the comparison to false.
        "CAST(key, 'NSDate') > 0",
        // `@count` of a number (the first count) is an error; memory ignored it.
        "children.@count.@count == 1",
    ])
    func predicatesBothStoresRejectAlike(format: String) throws {
        let answers = try Self.outcomes(format)
        #expect(answers[0] == answers[1], "\(format): \(answers)")
        #expect(answers[0] == "error \(CoreDataError.Code.invalidPredicate)", "\(format): \(answers)")
    }

    /// Neighbours of the predicates above that both stores still answer, with the same rows.
    @Test(arguments: [
        ("CAST(key, 'NSNumber') == nil", "leaf,mid,root"),
        ("CAST(key, 'NSString') == 'root'", "root"),
        ("CAST(CAST(key, 'NSNumber'), 'NSDate') == nil", "leaf,mid,root"),
        ("children.@distinctUnionOfObjects.key CONTAINS 'mid'", "root"),
        ("children.@count == 1", "mid,root"),
        ("ANY children.key == 'mid'", "root"),
    ])
    func predicatesBothStoresAnswerAlike(format: String, expected: String?) throws {
        let answers = try Self.outcomes(format)
        #expect(answers[0] == answers[1], "\(format): \(answers)")
        if let expected { #expect(answers[0] == expected, "\(format): \(answers)") }
    }

    /// A documented limit of the SQLite store, not a wrong answer: it cannot compile these
    /// (TERNARY branches of different types, which SQL cannot compare; `median:`, `mode:`
    /// or `stddev:` over a to-many key, which have no aggregate subquery), so the fetch
    /// fails with a typed error, while the in-memory store evaluates them. The TERNARY
    /// limit is reported as `.invalidPredicate`; a statistics function over a to-many key
    /// goes through the store's general "a to-many key is not allowed here" check, which
    /// reports `.invalidFetchRequest`.
    @Test(arguments: [
        ("TERNARY(key == 'root', key, 1) == 'root'", CoreDataError.Code.invalidPredicate, "root"),
        ("median:(children.int64) == nil", .invalidFetchRequest, "leaf,mid,root"),
        ("stddev:(children.int64) == nil", .invalidFetchRequest, "leaf,mid,root"),
        ("mode:(children.int64).@count == 0", .invalidFetchRequest, "leaf,mid,root"),
    ])
    func predicatesOnlyTheInMemoryStoreAnswers(format: String, sqliteError: CoreDataError.Code, inMemory: String) throws {
        let answers = try Self.outcomes(format)
        #expect(answers[0] == "error \(sqliteError)", "\(format): \(answers)")
        #expect(answers[1] == inMemory, "\(format): \(answers)")
    }
}
