import Foundation
import Testing
@testable import OpenCoreData

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

    /// Predicates one store answers and the other rejects (or answers differently):
    /// kept visible so that a fix shows up here.
    @Test func predicatesTheStoresDisagreeOn() throws {
        let stacks = try StoreKind.allCases.map { kind in
            let (stack, _, _) = try TestStack.sampleChain(kind)
            return stack
        }
        let formats = [
            // SQL: an answer (root); memory: "@distinctUnionOfObjects needs …" error.
            "children.@distinctUnionOfObjects.key.@count == 1",
            // SQL: no rows; memory: an error (a string cannot become a date).
            "CAST(key, 'NSDate') > 0",
            // SQL: an error; memory: answers (a count's count is 1).
            "children.@count.@count == 1",
            // SQL: an error (branches of different types); memory: answers.
            "TERNARY(key == 'root', key, 1) == 'root'",
            // SQL: an error (not compiled); memory: answers.
            "median:(children.int64) == nil",
        ]
        for format in formats {
            let predicate = try CDPredicate(format: format)
            let answers = stacks.map { stack in
                Self.outcome {
                    try stack.context.performAndWait {
                        stack.context.reset()
                        let request = try stack.request(sortedBy: ["key"])
                        request.predicate = predicate
                        return try stack.keys(request)
                    }
                }
            }
            withKnownIssue("SQLite and in-memory stores disagree on \(format): \(answers)") {
                #expect(answers[0] == answers[1], "\(format)")
            }
        }
    }
}
