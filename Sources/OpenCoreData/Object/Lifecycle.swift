/// Where an object stands between two saves of its context.
enum Lifecycle: UInt8 {
    /// Fetched or saved: in the store; changed if it has changed slots.
    case saved
    /// New in the context: the next save inserts it.
    case inserted
    /// Deleted: the next save deletes its row.
    case deleted
    /// Inserted and deleted again before any save: it has no row, and the next save
    /// writes nothing for it.
    case discarded
}
