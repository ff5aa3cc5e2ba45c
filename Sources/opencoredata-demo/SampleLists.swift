import DemoStore
import Foundation

/// The few items a new user finds in the nested lists: added when the root list is empty,
/// as one action, so that two first starts at once add them once.
enum SampleLists {
    /// The sample lists: a title, then the titles of its sub-items.
    static let samples: [(title: String, items: [String])] = [
        ("Groceries", ["Milk", "Bread", "Apples"]),
        ("Work", ["Write the report", "Call Ada"]),
        ("Books", []),
    ]

    /// Opens the nested lists of `store` (creating the root item) and adds the samples to
    /// an empty root list.
    static func add(to store: DemoStore) throws {
        let session = try ListsSession(store: store)
        try session.lists.addSamples(samples)
    }
}
