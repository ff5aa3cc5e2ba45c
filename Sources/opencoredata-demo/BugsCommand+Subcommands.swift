import DemoStore
import ArgumentParser
import Foundation

extension BugsCommand {
    struct Projects: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the projects, grouped by host.",
            discussion: "With --search, only the projects whose name or URL contains the text (any case), in one group."
        )

        @Option(name: .long, help: ArgumentHelp("Show only projects whose name or URL contains this text.", valueName: "text"))
        var search: String?

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let tracker = try TrackerSession(store: options.openStore())
                try options.output.emit(try tracker.projects(matching: search), text: TrackerOutput.projects)
            }
        }
    }

    struct AddProject: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-project",
            abstract: "Add a project.",
            discussion: "Its host, taken from the URL, groups it in `projects`."
        )

        @Argument(help: "The project's name.")
        var name: String

        @Option(name: .long, help: ArgumentHelp("The project's web address (http or https).", valueName: "url"))
        var url: String?

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let tracker = try TrackerSession(store: options.openStore())
                try options.output.emit(try tracker.addProject(name: name, url: url), text: TrackerOutput.action)
            }
        }
    }

    struct Bugs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bugs",
            abstract: "List a project's bugs, newest first."
        )

        @Argument(help: "The project (@reference or exact name).")
        var project: String

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let tracker = try TrackerSession(store: options.openStore())
                try options.output.emit(try tracker.bugs(of: project), text: TrackerOutput.bugs)
            }
        }
    }

    struct AddBug: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-bug",
            abstract: "Add a bug to a project, optionally with details and a screenshot."
        )

        @Argument(help: "The project (@reference or exact name).")
        var project: String

        @Argument(help: "The bug's title.")
        var title: String

        @Option(name: .long, help: ArgumentHelp("A longer description of the bug.", valueName: "text"))
        var details: String?

        @Option(name: .long, help: ArgumentHelp("A PNG or JPEG image file to attach.", valueName: "file"))
        var screenshot: String?

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let image = try screenshot.map(Self.read)
                let tracker = try TrackerSession(store: options.openStore())
                try options.output.emit(try tracker.addBug(to: project, title: title, details: details, screenshot: image), text: TrackerOutput.action)
            }
        }

        /// The file's bytes; `DemoError.cannotReadFile` when it cannot be read.
        static func read(_ path: String) throws -> Data {
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw DemoError.cannotReadFile(path, reason: FileFailure.reason(error))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a project (with its bugs), or one bug.",
            discussion: "Give a project, or --bug with a bug's reference."
        )

        @Argument(help: "The project to delete with all its bugs (@reference or exact name).")
        var project: String?

        @Option(name: .long, help: ArgumentHelp("The bug to delete instead (@reference).", valueName: "bug"))
        var bug: String?

        @OptionGroup var options: StoreOptions

        func validate() throws {
            if (project == nil) == (bug == nil) {
                throw ValidationError("Give either a project, or --bug with a bug's reference.")
            }
        }

        func run() throws {
            try DemoFailure.reporting {
                let tracker = try TrackerSession(store: options.openStore())
                if let bug {
                    try options.output.emit(try tracker.removeBug(bug), text: TrackerOutput.action)
                } else if let project {
                    try options.output.emit(try tracker.removeProject(project), text: TrackerOutput.action)
                }
            }
        }
    }
}
