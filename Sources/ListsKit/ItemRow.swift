import EditingSession
import OpenCoreData

/// One row of a list, as plain values that may leave the context's queue: what a page or
/// the command line shows of an item.
public struct ItemRow: Sendable, Hashable, Codable {
    /// The item, for the next action or a URL.
    public let reference: Reference<Item>
    /// The item's title.
    public let title: String
    /// Its position in its list, from 0.
    public let order: Int
    /// How many items its own list holds.
    public let childCount: Int

    public init(reference: Reference<Item>, title: String, order: Int, childCount: Int) {
        self.reference = reference
        self.title = title
        self.order = order
        self.childCount = childCount
    }
}
