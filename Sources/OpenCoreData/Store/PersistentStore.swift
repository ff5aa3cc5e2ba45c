import Foundation

/// A store added to a coordinator: a SQLite file or an in-memory store.
public final class PersistentStore: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: immutable after init; `backend` is only used under the
    // coordinator's lock.

    /// The kind of store.
    public let type: PersistentStoreType
    /// The store file, for file-based stores.
    public let url: URL?
    /// The model configuration whose entities this store holds (nil: all of them).
    public let configurationName: String?
    /// The store's unique identifier (`NSStoreUUID`), part of every object ID URI.
    public let identifier: String
    /// The store's metadata (`NSStoreType`, `NSStoreUUID`, `NSStoreModelVersionHashes`…).
    public let metadata: [String: any Sendable]
    /// The options the store was added with (`PersistentStoreOption` keys), as given.
    public let options: [String: any Sendable]

    let backend: any StoreBackend
    /// `Z_ENT` numbers of the entities of the store's configuration.
    let entityNumbers: Set<Int>
    /// Whether the configuration holds every entity of the model.
    let holdsAllEntities: Bool

    init(type: PersistentStoreType, url: URL?, model: ManagedObjectModel, configurationName: String?, entities: [EntityDescription], backend: any StoreBackend,
         options: [String: any Sendable]? = nil) {
        self.type = type
        self.options = options ?? [:]
        self.url = url
        self.configurationName = configurationName
        self.backend = backend
        identifier = backend.identifier
        metadata = backend.metadata
        entityNumbers = Set(entities.map { $0.slots.number })
        holdsAllEntities = entityNumbers.count == model.entities.count
    }

    func holds(_ entity: EntityDescription) -> Bool { entityNumbers.contains(entity.slots.number) }

    /// Whether the store holds the destination entity of `relationship` or one of its
    /// sub-entities (else the relationship can hold nothing here: relationships never
    /// cross stores).
    func holdsDestination(of relationship: RelationshipDescription) -> Bool {
        guard !holdsAllEntities else { return true }
        return relationship.destinationEntity?.selfAndDescendants.contains(where: holds) ?? false
    }

    /// The store as messages name it: its type, configuration and file (or identifier).
    public var description: String {
        let configuration = configurationName.map { " '\($0)'" } ?? ""
        return "\(type.rawValue) store\(configuration) \(url?.lastPathComponent ?? identifier)"
    }

    func fetch(_ query: StoreFetch) throws -> [FetchedRow] { try backend.fetch(query) }
    func count(_ query: StoreFetch) throws -> Int { try backend.count(query) }
    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? { try backend.snapshot(for: id) }
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try backend.relatedIDs(of: id, relationship: relationship)
    }
    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys { try backend.fetchKeys(query) }
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]] { try backend.fetchDictionaries(query) }
    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] { try backend.rows(for: ids) }
    func relatedRows(of owners: [ManagedObjectID], relationship: RelationshipDescription) throws -> [RelatedRow] {
        try backend.relatedRows(of: owners, relationship: relationship)
    }
    func save(_ request: SaveRequest) throws -> PermanentIDs { try backend.save(request) }
    func batchUpdate(_ plan: BatchUpdatePlan, origin: TransactionOrigin) throws -> [ManagedObjectID] { try backend.batchUpdate(plan, origin: origin) }
    func batchDelete(_ ids: [ManagedObjectID], origin: TransactionOrigin) throws -> Int { try backend.batchDelete(ids, origin: origin) }
    func deleteMatching(_ query: StoreFetch) throws -> Int? { try backend.deleteMatching(query) }
    func obtainPermanentIDs(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: ManagedObjectID] {
        try backend.obtainPermanentIDs(for: ids)
    }
    func close() { backend.close() }
    func hasExternalChanges() throws -> Bool { try backend.hasExternalChanges() }
    func newestHistoryToken() throws -> PersistentHistoryToken? { try backend.newestHistoryToken() }
    /// Whether saves and batch requests record persistent history here.
    var recordsHistory: Bool { backend.recordsHistory }
}

/// What a store implementation provides. Calls are serialised by the coordinator.
protocol StoreBackend: AnyObject {
    var identifier: String { get }
    var metadata: [String: any Sendable] { get }
    /// The store's number in the object IDs it hands out (`StoreNumbers`).
    var storeNumber: UInt32 { get }
    /// Rows matching the query, with values unless `includesValues` is false.
    func fetch(_ query: StoreFetch) throws -> [FetchedRow]
    func count(_ query: StoreFetch) throws -> Int
    /// The keys of the rows matching the query, in order, without their values.
    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys
    /// The dictionaries of a dictionary fetch (`query.dictionary`).
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]]
    /// The rows of `ids` (one root entity), in any order, in one read; missing ones left out.
    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow]
    /// The destination rows of a to-many relationship for several owners, in one read.
    func relatedRows(of owners: [ManagedObjectID], relationship: RelationshipDescription) throws -> [RelatedRow]
    /// Statements (SQLite) or reads (in memory) executed so far: evidence, for tests, of
    /// what an operation cost.
    var executedStatementCount: Int { get }
    /// Rows read so far: rows SQLite stepped through (`SQLITE_ROW`), or rows the in-memory
    /// store handed out. Evidence, for tests, of how much a fetch read.
    var steppedRowCount: Int { get }
    /// The stored values of one object, or nil when its row does not exist.
    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot?
    /// The IDs a to-many relationship of `id` holds, in order for ordered ones.
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID]
    /// Applies a batch update atomically; returns the IDs of the updated rows. `origin`
    /// is recorded in persistent history by stores that track it.
    func batchUpdate(_ plan: BatchUpdatePlan, origin: TransactionOrigin) throws -> [ManagedObjectID]
    /// Deletes rows atomically with their many-to-many rows, clearing to-one references
    /// to them; returns how many rows were deleted. `origin` as for `batchUpdate`.
    func batchDelete(_ ids: [ManagedObjectID], origin: TransactionOrigin) throws -> Int
    /// Deletes the rows `query` matches with one statement, without reading them, when the
    /// store can (SQLite); nil when it cannot, and the caller deletes by IDs instead. Only
    /// for entities no relationship touches (`BatchDeleteRules.touchesNoRelationship`).
    func deleteMatching(_ query: StoreFetch) throws -> Int?
    /// Applies a save atomically; returns the permanent IDs of the inserted objects.
    func save(_ request: SaveRequest) throws -> PermanentIDs
    func obtainPermanentIDs(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: ManagedObjectID]
    /// Whether another connection (another coordinator or process) has committed to the
    /// store since the last call, so rows cached from it may be stale.
    func hasExternalChanges() throws -> Bool
    /// The token of the newest transaction in the store's persistent history, or nil
    /// when history is not tracked or empty.
    func newestHistoryToken() throws -> PersistentHistoryToken?
    /// Whether saves and batch requests record persistent history (batch deletes must
    /// then read every row they delete).
    var recordsHistory: Bool { get }
    /// The transactions a history request selects (with changes when `withChanges`), or
    /// nil when the store has no history.
    func fetchHistory(_ request: PersistentHistoryChangeRequest, withChanges: Bool) throws -> [PersistentHistoryTransaction]?
    /// Deletes the transactions a history request selects; how many, or nil when the
    /// store has no history.
    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int?
    func close()
}

extension StoreBackend {
    func newestHistoryToken() throws -> PersistentHistoryToken? { nil }
    var recordsHistory: Bool { false }
    func fetchHistory(_ request: PersistentHistoryChangeRequest, withChanges: Bool) throws -> [PersistentHistoryTransaction]? { nil }
    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int? { nil }
}
