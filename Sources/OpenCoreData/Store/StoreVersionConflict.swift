import Foundation

/// A row whose version in the store is not the one a save was based on: changed by
/// another context, process or batch request since it was read (or deleted: `current`
/// is nil). Stores report these instead of writing; the context turns them into
/// `MergeConflict`s with the object's values.
struct StoreVersionConflict {
    let id: ManagedObjectID
    /// The version the save expected (`Z_OPT` when the context read the row).
    let expectedVersion: Int64
    /// The row as it is in the store now, nil when it was deleted.
    let current: RowSnapshot?
}

/// Thrown by a store's `save` when any row is in conflict; the store wrote nothing.
struct StoreConflicts: Error, @unchecked Sendable {
    // @unchecked Sendable: thrown and caught on the saving context's thread (the
    // context turns it into a `CoreDataError`); it never crosses threads.
    let conflicts: [StoreVersionConflict]
}
