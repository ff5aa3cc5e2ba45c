import Foundation
import Testing

/// `--help` for every command: exit 0, usage on standard output, a useful abstract.
@Suite struct HelpTests {
    @Test func everyCommandHasHelp() throws {
        let cli = try DemoCLI()
        let commands: [([String], String)] = [
            ([], "nested-lists and project/bug tracker"),
            (["serve"], "Serve both apps as live web pages"),
            (["lists"], "Nested lists"),
            (["lists", "ls"], "Show a list"),
            (["lists", "add"], "Add an item"),
            (["lists", "rename"], "Rename an item"),
            (["lists", "mv"], "Move an item"),
            (["lists", "rm"], "Delete an item"),
            (["lists", "samples"], "Add the sample lists"),
            (["bugs"], "Project/bug tracker"),
            (["bugs", "projects"], "List the projects"),
            (["bugs", "add-project"], "Add a project"),
            (["bugs", "bugs"], "List a project's bugs"),
            (["bugs", "add-bug"], "Add a bug"),
            (["bugs", "rm"], "Delete a project"),
        ]
        for (command, abstract) in commands {
            let run = try cli.run(command + ["--help"], addsStore: false)
            #expect(run.status == 0, "\(run)")
            #expect(run.output.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(abstract), "\(run)")
            #expect(run.output.contains("USAGE: opencoredata-demo \((command).joined(separator: " "))".trimmingCharacters(in: .whitespaces)), "\(run)")
            if !command.isEmpty, command != ["lists"], command != ["bugs"], command != ["serve"] {
                #expect(run.output.contains("--store") && run.output.contains("--json"), "\(run)")
            }
        }
        // The exit codes are documented where a user looks first.
        let words = try cli.run(["--help"], addsStore: false).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for code in ["64 bad arguments", "65 bad input", "66 a file", "70 the web server could not listen", "73 the store cannot be created", "74 any other store error", "75 the store stayed busy"] {
            #expect(words.contains(code), "opencoredata-demo --help does not document \(code)")
        }
    }
}
