import OpenCoreData

/// An entry of the nested list: a title, its place among its siblings and its own list of
/// children — objc.io's `Item`.
///
/// Every item but the root has a parent; a list is one item's children sorted by `order`,
/// which runs 0, 1, … n-1 without gaps. Deleting an item deletes its children (cascade) and
/// moves its later siblings up (`prepareForDeletion`), so the orders stay contiguous.
///
/// Change items through `NestedList`, which checks the input, names the undo step and
/// saves; the class itself is public so that a fetched results controller's delegate can
/// read the objects it is handed (on the context's queue).
public final class Item: ManagedObject {
    /// The text shown in the list (1…`NestedList.maximumTitleLength` characters).
    @Managed public var title: String
    /// The position among the siblings, from 0.
    @Managed public var order: Int64
    /// The item whose list holds this one; nil for the root only.
    @Managed public var parent: Item?
    /// This item's own list, unordered: sort by `order` (`sortedChildren`).
    @Managed public var children: Set<Item>
    /// `true` on the root and nil on every other item: a uniqueness constraint on it keeps
    /// a second root from being saved (nil never clashes), even by another process.
    @Managed public var isRoot: Bool?

    /// The children sorted by `order`.
    ///
    /// - Complexity: O(n log n) over the children, each read from the store if it was a
    ///   fault; for long lists use `NestedList.rows(in:offset:limit:)` or a controller.
    public var sortedChildren: [Item] { children.sorted { $0.order < $1.order } }

    /// Moves the later siblings up by one so that the list's orders stay contiguous.
    ///
    /// Runs for every deleted item, cascades included; an item whose parent is deleted
    /// too leaves its siblings alone, since they all go.
    override public func prepareForDeletion() {
        super.prepareForDeletion()
        guard let parent, !parent.isDeleted else { return }
        for sibling in parent.children where sibling !== self && sibling.order > order {
            sibling.order -= 1
        }
    }
}
