import ArgumentParser
import Foundation

/// `opencoredata-demo`: the two seed apps — objc.io's nested lists and the Project/Bug
/// tracker — scripted from the command line on one shared SQLite store.
///
/// A plain `ParsableCommand`: every command opens the store, runs its work on private-queue
/// contexts with `performAndWait`, prints, and exits. Nothing waits for the main queue to
/// be driven, since a command line has no run loop.
@main
struct OpenCoreDataDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opencoredata-demo",
        abstract: "The nested-lists and project/bug tracker demo apps of OpenCoreData, on one store.",
        discussion: """
            With no command, runs the nested-list demo on the store: creates the root list \
            (and a few sample items on the first run) and prints the whole tree.

            Every command works on one SQLite store shared by both apps: by default \
            $XDG_DATA_HOME/opencoredata-demo/Demo.sqlite (or ~/.local/share/…), or the file \
            given with --store (its folder is created if missing). Several processes may \
            use the store at once.

            Exit codes: 0 success; 64 bad arguments; 65 bad input refused by an app (an \
            empty title, an unknown item path, reference or project); 66 a file to read \
            (a screenshot) cannot be read; 73 the store cannot be created or opened; \
            74 any other store error; 75 the store stayed busy (another process held its \
            write lock for the whole --timeout): try again.
            """,
        subcommands: [ListsCommand.self, BugsCommand.self]
    )

    @OptionGroup var options: StoreOptions

    func run() throws {
        try DemoFailure.reporting {
            let store = try options.openStore()
            try NestedListDemo.run(on: store, output: options.output)
        }
    }
}
