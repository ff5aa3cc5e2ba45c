import Foundation
import OpenCoreDataTestSupport
import Testing

/// docs/demo-apps.md's CLI session, run again command by command on a new default store:
/// the transcript stays what the command line prints.
@Suite struct TranscriptTests {
    /// One `$ opencoredata-demo …` line of the transcript and the lines printed after it.
    struct Step {
        var arguments: [String]
        var expected: [String]
    }

    @Test func docTranscriptIsWhatTheCommandLinePrints() throws {
        let doc = DocExample.repositoryRoot.appendingPathComponent("docs/demo-apps.md")
        let steps = try Self.steps(in: String(contentsOf: doc, encoding: .utf8))
        #expect(steps.count > 10)
        let cli = try DemoCLI()
        for step in steps {
            let run = try cli.run(step.arguments, addsStore: false)
            let printed = (run.output + run.errors).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let actual = Array(printed.reversed().drop { $0.isEmpty }.reversed())
            #expect(actual.map(Self.withoutTimes) == step.expected.map(Self.withoutTimes), "opencoredata-demo \(step.arguments.joined(separator: " "))")
        }
    }

    /// The steps of the ```` ```console ```` block after the `<!-- transcript -->` marker.
    static func steps(in doc: String) throws -> [Step] {
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let marker = try #require(lines.firstIndex(of: "<!-- transcript -->"), "docs/demo-apps.md has no <!-- transcript --> marker")
        let start = try #require(lines[marker...].firstIndex(of: "```console"))
        var steps: [Step] = []
        for line in lines[(start + 1)...] {
            if line == "```" { break }
            if line.hasPrefix("$ opencoredata-demo") {
                steps.append(Step(arguments: Array(words(line).dropFirst(2)), expected: []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].expected.append(line)
            }
        }
        return steps
    }

    /// A shell line's words: split at spaces, double quotes grouping.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, started = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " ", !quoted {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    /// `line` with its timestamps (`2026-11-25 03:34:50`) blanked: bugs are stamped when made.
    static func withoutTimes(_ line: String) -> String {
        line.replacing(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/, with: "<time>")
    }
}
