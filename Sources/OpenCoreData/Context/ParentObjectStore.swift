import Foundation

/// What stands behind a context — Core Data's "parent object store": everything a
/// context reads from, or hands its saves down to.
///
/// A `PersistentStoreCoordinator` is one today; a parent context will be one for its
/// child contexts, so every requirement is put in terms a context could also answer:
/// object IDs, fetched rows and snapshots, keys, and `SaveRequest`s. The context reaches
/// it through `ManagedObjectContext.parentStore`, one existential call per request (a
/// class-bound existential: no boxing, no generic specialisation at the call).
protocol ParentObjectStore: AnyObject, Sendable {
    // MARK: Identity

    /// The model whose entities and IDs every answer is in.
    var managedObjectModel: ManagedObjectModel { get }

    /// The store number keys of `query`'s results carry unless they name their own.
    func storeNumber(for query: StoreFetch) throws -> UInt32

    /// Runs `body` with `storeOf`, which names the store holding an object (nil: none
    /// behind this parent), the stores held still for the whole of `body`: a save's check
    /// that no relationship crosses stores asks about every changed object at once.
    func withStoreOf<T>(_ body: (_ storeOf: (ManagedObjectID) -> PersistentStore?) -> T) -> T

    // MARK: Reading

    /// The rows `query` matches (with values unless `query.includesValues` is false).
    func fetch(_ query: StoreFetch) throws -> [FetchedRow]

    /// How many rows `query` matches.
    func count(_ query: StoreFetch) throws -> Int

    /// The saved values of one object (firing a fault), or nil when it does not exist.
    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot?

    /// `snapshot(for:)` from values cached no longer than `maxAge` seconds ago (0: none),
    /// for `ManagedObjectContext.stalenessInterval`. By default, `snapshot(for:)`.
    func snapshot(for id: ManagedObjectID, maxAge: TimeInterval) throws -> RowSnapshot?

    /// The IDs the to-many `relationship` of the object `id` holds.
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID]

    /// The keys of the rows `query` matches, in order (for `FetchResults`).
    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys

    /// The rows of `ids` (a batch of `FetchResults`), in any order; missing rows left out.
    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow]

    /// Loads the relationships along `paths` of `rows` ahead, so faults fire without a read.
    func prefetch(_ paths: [[RelationshipDescription]], from rows: [FetchedRow]) throws

    /// The results of a dictionary fetch.
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]]

    // MARK: Writing

    /// Applies one save; returns the permanent IDs of its inserts, in order.
    func save(_ request: SaveRequest) throws -> PermanentIDs

    /// Permanent IDs for the temporary `ids`, from `store` when given (`assign(_:to:)`).
    func obtainPermanentIDs(for ids: [ManagedObjectID], in store: PersistentStore?) throws -> [ManagedObjectID: ManagedObjectID]

    /// Runs a batch insert; returns the IDs of the inserted objects.
    func batchInsert(_ request: BatchInsertRequest) throws -> [ManagedObjectID]

    /// Runs a batch update; returns the IDs of the updated objects.
    func batchUpdate(_ request: BatchUpdateRequest) throws -> [ManagedObjectID]

    /// Runs a batch delete; returns the deleted IDs (nil when not wanted and not read) and their count.
    func batchDelete(_ request: BatchDeleteRequest) throws -> (ids: [ManagedObjectID]?, count: Int)
}
