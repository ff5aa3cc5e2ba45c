import ArgumentParser
import Foundation

/// `opencoredata-demo bugs …`: the Project/Bug tracker.
struct BugsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bugs",
        abstract: "Project/bug tracker: list and add projects and bugs, delete them.",
        discussion: """
            A <project> is a project's reference, as `projects --json` prints it, or its \
            exact name. A <bug> is a bug's reference, as `bugs --json` prints it.
            """,
        subcommands: [Projects.self, AddProject.self, Bugs.self, AddBug.self, Remove.self]
    )
}
