import ArgumentParser
import Foundation

extension ListsCommand {
    struct Samples: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "samples",
            abstract: "Add the sample lists to an empty root list, then show the whole tree.",
            discussion: "The web app adds the same samples when it starts on an empty store; a root list with items is left as it is."
        )

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let store = try options.openStore()
                try SampleLists.add(to: store)
                try options.output.emit(try ListsSession(store: store).tree(at: nil), text: ListsOutput.tree)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls",
            abstract: "Show a list: the root's items, or an item's sub-items.",
            discussion: "Prints the list's breadcrumb, then its items in order. --tree prints every level below it."
        )

        @Argument(help: "The item whose sub-items to show (a path such as 2.1, or @reference); the root list when omitted.")
        var item: String?

        @Flag(name: .long, help: "Show the whole tree below the list, indented, with each item's path.")
        var tree = false

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let lists = try ListsSession(store: options.openStore())
                if tree {
                    try options.output.emit(try lists.tree(at: item), text: ListsOutput.tree)
                } else {
                    try options.output.emit(try lists.list(at: item), text: ListsOutput.list)
                }
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an item at the end of a list.",
            discussion: "Prints the new item with its path and reference."
        )

        @Argument(help: "The new item's title.")
        var title: String

        @Option(name: .customLong("in"), help: ArgumentHelp("The item whose list to add to (a path, @reference, or `root`); the root list when omitted.", valueName: "item"))
        var parent: String?

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let lists = try ListsSession(store: options.openStore())
                try options.output.emit(try lists.add(title, in: parent), text: ListsOutput.action)
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an item.")

        @Argument(help: "The item to rename (a path such as 2.1, or @reference).")
        var item: String

        @Argument(help: "Its new title.")
        var title: String

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let lists = try ListsSession(store: options.openStore())
                try options.output.emit(try lists.rename(item, to: title), text: ListsOutput.action)
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv",
            abstract: "Move an item to another position in its list, or into another list.",
            discussion: """
                With --position only, reorders the item within its list. With --in, moves it \
                (and its sub-items) into that item's list, at the end or at --position. The \
                orders of both lists stay contiguous.
                """
        )

        @Argument(help: "The item to move (a path such as 2.1, or @reference).")
        var item: String

        @Option(name: .customLong("in"), help: ArgumentHelp("The item whose list to move it into (a path, @reference, or `root`).", valueName: "item"))
        var parent: String?

        @Option(name: .long, help: ArgumentHelp("The 1-based position to move it to; the end of the list when only --in is given.", valueName: "n"))
        var position: Int?

        @OptionGroup var options: StoreOptions

        func validate() throws {
            if parent == nil, position == nil {
                throw ValidationError("Give --position to reorder the item, or --in to move it into another list.")
            }
            if let position, position < 1 {
                throw ValidationError("--position is 1-based: give 1 or more.")
            }
        }

        func run() throws {
            try DemoFailure.reporting {
                let lists = try ListsSession(store: options.openStore())
                try options.output.emit(try lists.move(item, into: parent, to: position), text: ListsOutput.action)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete an item and all its sub-items.",
            discussion: "The later items of its list move up one position."
        )

        @Argument(help: "The item to delete (a path such as 2.1, or @reference).")
        var item: String

        @OptionGroup var options: StoreOptions

        func run() throws {
            try DemoFailure.reporting {
                let lists = try ListsSession(store: options.openStore())
                try options.output.emit(try lists.remove(item), text: ListsOutput.action)
            }
        }
    }
}
