import EditingSession
import OpenCoreData

extension NestedList {
    /// Fills an empty root list with `samples` — each a list's title and its items' titles —
    /// as one action, “Add Sample Lists”. Does nothing, and returns false, when the root list
    /// has items: also when another process filled it first (its save makes this one a
    /// merge conflict, and the session's retry then finds the list full), so two first
    /// launches at once add the samples once.
    ///
    /// - Throws: `ListsError` for a bad title (nothing is added).
    @discardableResult
    public func addSamples(_ samples: [(title: String, items: [String])]) throws -> Bool {
        let samples = try samples.map { sample in
            (try Self.validatedTitle(sample.title), try sample.items.map(Self.validatedTitle))
        }
        return try session.perform("Add Sample Lists") { context in
            let root = try session.object(self.root)
            guard try Item.childCount(of: root, in: context) == 0 else { return false }
            for (title, items) in samples {
                let list = try Item.insert(title, under: root, into: context)
                for item in items { _ = try Item.insert(item, under: list, into: context) }
            }
            return true
        }
    }
}
