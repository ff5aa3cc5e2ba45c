import ArgumentParser
import Foundation

/// `opencoredata-demo`: the two seed apps — objc.io's nested lists and the Project/Bug
/// tracker — on one shared SQLite store, served as live web pages (`serve`, the default)
/// or scripted from the command line (`lists …`, `bugs …`).
///
/// The `lists` and `bugs` commands are plain `ParsableCommand`s: each opens the store, runs
/// its work on private-queue contexts with `performAndWait`, prints, and exits. Nothing
/// waits for the main queue to be driven, since a command line has no run loop.
@main
struct OpenCoreDataDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opencoredata-demo",
        abstract: "The nested-lists and project/bug tracker demo apps of OpenCoreData, on one store.",
        discussion: """
            With no command, serves both apps as live web pages on http://127.0.0.1:8080 \
            (see `serve --help`) until Ctrl+C.

            Every command works on one SQLite store shared by both apps: by default \
            $XDG_DATA_HOME/opencoredata-demo/Demo.sqlite (or ~/.local/share/…), or the file \
            given with --store (its folder is created if missing). Several processes may \
            use the store at once.

            Exit codes: 0 success; 64 bad arguments; 65 bad input refused by an app (an \
            empty title, an unknown item path, reference or project); 66 a file to read \
            (a screenshot) cannot be read; 73 the store cannot be created or opened; \
            70 the web server could not listen or stopped with an error; 74 any other store error; 75 the store stayed busy (another process held its \
            write lock for the whole --timeout): try again.
            """,
        subcommands: [ServeCommand.self, ListsCommand.self, BugsCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
