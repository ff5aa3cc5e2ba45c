import ArgumentParser
import Foundation

/// `opencoredata-demo lists …`: objc.io's nested lists.
struct ListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Nested lists: show, add, rename, move and delete items, or add the samples.",
        discussion: """
            An <item> is a position path from the root list — 2 is the root's second item, \
            2.1 that item's first sub-item — or an item's reference, as `ls --json` prints it. \
            Positions are 1-based and shift as items are added, moved and deleted; \
            references never change.
            """,
        subcommands: [List.self, Add.self, Rename.self, Move.self, Remove.self, Samples.self]
    )
}
