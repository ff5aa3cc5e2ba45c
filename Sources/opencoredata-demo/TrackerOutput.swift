import BugsKit
import Foundation

/// What the `bugs` commands print: the kit's rows as JSON (see docs/demo-apps.md), or as
/// text, one project or bug a line, with the `@reference` that addresses it.
enum TrackerOutput {
    /// A project's page: the project, then its bugs newest first.
    struct Bugs: Encodable {
        var project: ProjectRow
        var bugs: [BugRow]
    }

    /// What an editing command did: the undo action's name, and what it made.
    struct Action: Encodable {
        var action: String
        var project: ProjectRow?
        var bug: BugRow?
    }

    // MARK: - Text

    static func projects(_ list: ProjectList) -> [String] {
        list.sections.flatMap { section in
            [section.name.isEmpty ? (list.isSearching ? "Search results" : "(no host)") : section.name]
                + section.projects.map { "  " + line($0) }
        }
    }

    static func bugs(_ page: Bugs) -> [String] {
        [line(page.project)] + page.bugs.flatMap { bug in
            let details = bug.details.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
            return ["  " + line(bug)] + details.filter { !$0.isEmpty }.map { "      " + $0 }
        }
    }

    static func action(_ action: Action) -> [String] {
        [action.action + (action.bug.map { ": " + line($0) } ?? action.project.map { ": " + line($0) } ?? "")]
    }

    private static func line(_ project: ProjectRow) -> String {
        ["@\(project.reference)", project.name, project.url, project.bugCount == 1 ? "1 bug" : "\(project.bugCount) bugs"]
            .compactMap { $0 }.joined(separator: "  ")
    }

    private static func line(_ bug: BugRow) -> String {
        let created = bug.created.formatted(.iso8601.year().month().day().dateSeparator(.dash).dateTimeSeparator(.space).time(includingFractionalSeconds: false))
        let screenshot = bug.screenshotFormat.map { "[\($0.rawValue.uppercased()) screenshot]" }
        return ["@\(bug.reference)", created, bug.title, screenshot].compactMap { $0 }.joined(separator: "  ")
    }
}
