import DemoStore
import Foundation

/// What `opencoredata-demo` does with no command (until the web app takes its place):
/// opens the nested lists on the store — creating the root item — adds a few sample
/// items when the root list is empty, and prints the whole tree.
enum NestedListDemo {
    /// The sample lists: a title, then the titles of its sub-items.
    static let samples: [(title: String, items: [String])] = [
        ("Groceries", ["Milk", "Bread", "Apples"]),
        ("Work", ["Write the report", "Call Ada"]),
        ("Books", []),
    ]

    static func run(on store: DemoStore, output: Output) throws {
        let session = try ListsSession(store: store)
        try session.lists.addSamples(samples)
        try output.emit(try session.tree(at: nil), text: ListsOutput.tree)
    }
}
