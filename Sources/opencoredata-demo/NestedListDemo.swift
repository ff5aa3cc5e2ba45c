import Foundation

/// What `opencoredata-demo` does with no command (until the web app takes its place):
/// opens the nested lists on the store — creating the root item — adds a few sample
/// items when the root list is empty, and prints the whole tree.
enum NestedListDemo {
    /// The sample lists: a title, then the titles of its sub-items.
    static let samples: [(String, [String])] = [
        ("Groceries", ["Milk", "Bread", "Apples"]),
        ("Work", ["Write the report", "Call Ada"]),
        ("Books", []),
    ]

    static func run(on store: DemoStore, output: Output) throws {
        let session = try ListsSession(store: store)
        let lists = session.lists
        if try lists.rows(in: lists.root, limit: 1).isEmpty {
            for (title, children) in samples {
                let list = try lists.add(title, to: lists.root)
                for child in children { try lists.add(child, to: list.reference) }
            }
        }
        try output.emit(try session.tree(at: nil), text: ListsOutput.tree)
    }
}
