import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Replays the fuzzer's corpus and every crash it found (`Fuzz/Corpus`, `Fuzz/Crashes`)
/// through the parser, and parses seeded random inputs: each input must parse or throw a
/// `CoreDataError`, and what parses must print to a format that parses back unchanged.
@Suite struct PredicateFuzzReplayTests {
    /// The arguments the fuzz target passes with every input.
    private static var arguments: [Any?] { ["text", 42, 1.5, [1, 2], nil, "key.path", "x", 7, "y", 3] }

    private static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// What went wrong with `format`, or `nil` when the parser behaved.
    private static func misbehavior(_ format: String) -> String? {
        let predicate: CDPredicate
        do {
            predicate = try CDPredicate(format: format, argumentArray: arguments)
        } catch let error as CoreDataError {
            return error.code == .invalidPredicate ? nil : "threw \(error.code)"
        } catch {
            return "threw a non-CoreDataError \(error)"
        }
        let printed = predicate.predicateFormat
        guard let reparsed = try? CDPredicate(format: printed) else { return "its print \(printed.debugDescription) does not parse" }
        guard reparsed == predicate, reparsed.predicateFormat == printed else {
            return "round trip changed it: \(printed.debugDescription) → \(reparsed.predicateFormat.debugDescription)"
        }
        return nil
    }

    private static func inputs(in folder: String) throws -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasSuffix(".md") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: ["Corpus", "Crashes"])
    func replayEveryCommittedInput(folder: String) throws {
        let files = try Self.inputs(in: folder)
        if folder == "Corpus" { #expect(files.count > 100, "the corpus is missing") }
        for file in files {
            let format = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            if let problem = Self.misbehavior(format) {
                Issue.record("\(folder)/\(file.lastPathComponent): \(problem)")
            }
        }
    }

    @Test func seededRandomBytesAndTokens() {
        var random = SeededRandom.fromEnvironment(for: "PredicateFuzzReplayTests.seededRandomBytesAndTokens")
        let tokens = [
            "a", "b.c", "SELF", "(", ")", "{", "}", "[", "]", ",", ".", "@count", "@sum", "==", "!=", "<", ">=", "=<",
            "AND", "OR", "NOT", "!", "&&", "ANY", "ALL", "NONE", "IN", "LIKE[cd]", "BETWEEN", "CONTAINS", "+", "-",
            "*", "/", "**", "1", "-2", "0x1F", "1e9", "'s'", "\"t\\n\"", "nil", "TRUE", "%@", "%K", "%d", "$x",
            "SUBQUERY(", "FUNCTION(", "TERNARY(", "CAST(", "'NSDate'", "sqrt(", "add:to:(", "now()", "FIRST", "LAST",
            "SIZE", "UNION", "MINUS", "TRUEPREDICATE", "#first", "é", ":=", "?", "\\", "'",
        ]
        var failures = 0
        for round in 0..<3_000 {
            let format: String
            if round.isMultiple(of: 3) {
                let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                format = String(decoding: bytes, as: UTF8.self)
            } else {
                let count = Int.random(in: 1...30, using: &random)
                format = (0..<count).map { _ in random.pick(tokens) }.joined(separator: random.chance(0.5) ? " " : "")
            }
            if let problem = Self.misbehavior(format), failures < 20 {
                failures += 1
                Issue.record("seed \(random.seed): \(format.debugDescription): \(problem)")
            }
        }
    }
}
