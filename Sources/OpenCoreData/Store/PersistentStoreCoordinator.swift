import Foundation

/// Connects contexts to stores: one model, one or more persistent stores, a row cache.
///
/// Several contexts may share a coordinator from any threads: it serialises every store
/// access with its own lock.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    // @unchecked Sendable: every mutable property is read and written under `lock`.

    /// The model every store and context of this coordinator uses.
    public let managedObjectModel: ManagedObjectModel
    let lock = NSLock()
    private var stores: [PersistentStore] = []
    var rowCache = RowCache()

    /// Creates a coordinator for `model`. The model is validated and frozen when the
    /// first store is added.
    public init(managedObjectModel model: ManagedObjectModel) {
        managedObjectModel = model
    }

    /// The stores added so far.
    public var persistentStores: [PersistentStore] { lock.withLock { stores } }

    /// Opens (or creates) a store and adds it.
    ///
    /// - Parameters:
    ///   - type: `.sqlite` (the default store) or `.inMemory`.
    ///   - configuration: a configuration name of the model, or nil for all entities.
    ///   - url: the store file (ignored by the in-memory store).
    ///   - options: `PersistentStoreOption` keys (pragmas, read-only, timeout, a quick
    ///     check at open); the in-memory store ignores them.
    /// - Throws: `.invalidModel`, `.incompatibleModel`, `.notAStore`, `.storeCorrupt`,
    ///   `.storeReadOnly`, `.storeTimeout`, `.storeOpenFailed`; nothing is written to an
    ///   existing file that fails to open (except rolling back a hot journal).
    @discardableResult
    public func addPersistentStore(
        type: PersistentStoreType,
        configuration: String? = nil,
        at url: URL? = nil,
        options: [String: any Sendable]? = nil
    ) throws -> PersistentStore {
        try managedObjectModel.freeze()
        let backend: any StoreBackend
        switch type {
        case .sqlite:
            guard let url, url.isFileURL else { throw CoreDataError(.storeOpenFailed, "A SQLite store needs a file URL.") }
            backend = try SQLiteStore(model: managedObjectModel, url: url, options: SQLiteStoreOptions(options))
        case .inMemory:
            backend = InMemoryStore(model: managedObjectModel)
        default:
            throw CoreDataError(.storeInvalidType, "Unknown store type '\(type.rawValue)'.")
        }
        let store = PersistentStore(type: type, url: url, model: managedObjectModel, configurationName: configuration, backend: backend)
        lock.withLock { stores.append(store) }
        return store
    }

    /// Removes a store; its objects can no longer be fetched or saved.
    public func remove(_ store: PersistentStore) {
        lock.withLock {
            stores.removeAll { $0 === store }
            rowCache.removeAll()
            store.close()
        }
    }

    // MARK: - Routing

    func store(for entity: EntityDescription) throws -> PersistentStore {
        guard let store = stores.first(where: { $0.holds(entity) }) else {
            throw CoreDataError(.storeOperationFailed, "No persistent store holds entity '\(entity.name)'. Add a store first.")
        }
        return store
    }

    func store(for id: ManagedObjectID) throws -> PersistentStore {
        if let identifier = id.storeIdentifier, let store = stores.first(where: { $0.identifier == identifier }) { return store }
        return try store(for: id.entity)
    }

    // MARK: - Store access (each under the lock)

    func fetch(_ query: StoreFetch) throws -> [FetchedRow] {
        try lock.withLock {
            let rows = try store(for: query.entity).fetch(query)
            if query.includesValues { rowCache.insert(rows) }
            return rows
        }
    }

    func count(_ query: StoreFetch) throws -> Int {
        try lock.withLock { try store(for: query.entity).count(query) }
    }

    /// The stored values of one object: from the row cache when there and no other
    /// connection has written to the store since, else from the store.
    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        try lock.withLock {
            let store = try store(for: id)
            if let cached = rowCache[id] {
                if try !store.hasExternalChanges() { return cached }
                rowCache.removeAll()
            }
            let snapshot = try store.snapshot(for: id)
            if let snapshot { rowCache[id] = snapshot }
            return snapshot
        }
    }

    /// The IDs a to-many relationship holds: prefetched ones when there, else from the store.
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try lock.withLock {
            if let prefetched = rowCache.takeRelated(id, relationship: relationship) { return prefetched }
            return try store(for: id).relatedIDs(of: id, relationship: relationship)
        }
    }

    /// The dictionaries of a dictionary fetch.
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]] {
        try lock.withLock { try store(for: query.entity).fetchDictionaries(query) }
    }

    /// The identity of the store holding `entity`, for building its object IDs.
    func storeToken(for entity: EntityDescription) throws -> StoreToken {
        try lock.withLock { try store(for: entity).backend.token }
    }

    /// The keys of the rows `query` matches, in order (for batch-faulting arrays).
    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys {
        try lock.withLock { try store(for: query.entity).fetchKeys(query) }
    }

    /// The rows of `ids` (one root entity), read in one statement. Not cached: the
    /// objects made from them keep their values, and a batch-faulting walk over a large
    /// store should not fill the cache.
    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] {
        try lock.withLock {
            guard let first = ids.first else { return [] }
            return try store(for: first).rows(for: ids)
        }
    }

    /// Statements executed by every store so far (reads, for the in-memory store): lets
    /// tests prove that an operation ran no SQL.
    package var executedStatementCount: Int {
        lock.withLock { stores.reduce(0) { $0 + $1.backend.executedStatementCount } }
    }

    /// Writes `request` in one transaction; returns the permanent IDs of inserted objects.
    func save(_ request: SaveRequest) throws -> PermanentIDs {
        try lock.withLock {
            guard let first = request.inserts.first?.id ?? request.updates.first?.id ?? request.deletes.first?.id ?? request.toManyChanges.first?.owner else {
                return PermanentIDs(temporary: [], permanent: [], needsLookup: false)
            }
            let store = try store(for: first)
            do {
                let map = try store.save(request)
                rowCache.didSave(request, permanentIDs: map)
                return map
            } catch let conflicts as StoreConflicts {
                // The cached rows are stale: the next read (a refresh) must see the store.
                rowCache.evict(conflicts.conflicts.map(\.id))
                throw conflicts
            }
        }
    }

    func obtainPermanentIDs(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: ManagedObjectID] {
        try lock.withLock {
            guard let first = ids.first else { return [:] }
            return try store(for: first.entity).obtainPermanentIDs(for: ids)
        }
    }
}

/// Which kind of persistent store to add.
public struct PersistentStoreType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A SQLite file in Core Data's format (the default store).
    public static let sqlite = PersistentStoreType(rawValue: "SQLite")
    /// A store that lives in memory only, with the same semantics.
    public static let inMemory = PersistentStoreType(rawValue: "InMemory")
}
