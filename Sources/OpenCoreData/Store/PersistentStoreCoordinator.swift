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
    /// The stores, in the order they were added; read and written under `lock`.
    private(set) var stores: [PersistentStore] = []
    var rowCache = RowCache()
    /// The contexts on this coordinator that merge their siblings' saves
    /// (`automaticallyMergesChangesFromParent`).
    let saveBroadcast = SaveBroadcast()
    /// The watchers of stores added with `PersistentStoreOption.remoteChangeNotificationPost`,
    /// by store; read and written under `lock`.
    var remoteChangeWatchers: [ObjectIdentifier: RemoteChangeWatcher] = [:]

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
    ///   - configuration: a configuration name of the model, or nil for all entities. A
    ///     store holds (and a new SQLite file gets tables for) only its configuration's
    ///     entities; a new object goes to the first store holding its entity (or the one
    ///     `ManagedObjectContext.assign(_:to:)` names), and fetches read every store
    ///     holding the fetched entity.
    ///   - url: the store file (ignored by the in-memory store).
    ///   - options: `PersistentStoreOption` keys (pragmas, read-only, timeout, a quick
    ///     check at open, persistent history; the in-memory store ignores these, but
    ///     refuses `persistentHistoryTracking` with `.storeOpenFailed`) and
    ///     `remoteChangeNotificationPost`, `remoteChangePolling` (both stores).
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
        let remoteChanges = try Self.remoteChangeRequest(options)
        let entities = managedObjectModel.entities(forConfigurationName: configuration)
        let backend: any StoreBackend
        switch type {
        case .sqlite:
            guard let url, url.isFileURL else { throw CoreDataError(.storeOpenFailed, "A SQLite store needs a file URL.") }
            backend = try SQLiteStore(model: managedObjectModel, url: url, entities: entities, options: SQLiteStoreOptions(options))
        case .inMemory:
            if options?[PersistentStoreOption.persistentHistoryTracking] as? Bool == true {
                throw CoreDataError(.storeOpenFailed,
                    "Persistent history is recorded by SQLite stores only, as in Core Data: the in-memory store cannot take PersistentStoreOption.persistentHistoryTracking.",
                    key: PersistentStoreOption.persistentHistoryTracking)
            }
            backend = InMemoryStore(model: managedObjectModel)
        default:
            throw CoreDataError(.storeInvalidType, "Unknown store type '\(type.rawValue)'.")
        }
        let store = PersistentStore(type: type, url: url, model: managedObjectModel, configurationName: configuration, entities: entities, backend: backend, options: options)
        let watcher = try makeRemoteChangeWatcher(for: store, request: remoteChanges)
        lock.withLock {
            stores.append(store)
            if let watcher { remoteChangeWatchers[ObjectIdentifier(store)] = watcher }
        }
        watcher?.start()
        return store
    }

    /// Removes a store; its objects can no longer be fetched or saved.
    public func remove(_ store: PersistentStore) {
        stopRemoteChangeWatcher(for: store)
        lock.withLock {
            stores.removeAll { $0 === store }
            rowCache.removeAll()
            store.close()
        }
    }

    // MARK: - Store access (each under the lock)

    /// The rows `query` matches, from every store holding its entities (see
    /// `fetchMerged(_:from:)` for a fetch spanning several).
    func fetch(_ query: StoreFetch) throws -> [FetchedRow] {
        try lock.withLock {
            let targets = try stores(for: query)
            let rows = targets.count == 1 ? try targets[0].store.fetch(targets[0].query) : try fetchMerged(query, from: targets)
            if query.includesValues { rowCache.insert(rows) }
            return rows
        }
    }

    /// How many rows `query` matches, summed over the stores holding its entities.
    func count(_ query: StoreFetch) throws -> Int {
        try lock.withLock {
            let targets = try stores(for: query)
            if targets.count == 1 { return try targets[0].store.count(targets[0].query) }
            return try countMerged(query, from: targets)
        }
    }

    /// The stored values of one object: from the row cache when there and no other
    /// connection has written to the store since, else from its store.
    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        try lock.withLock { try snapshot(for: id, in: try store(for: id)) }
    }

    /// `snapshot(for:)` with the object's store found. Call under the lock.
    func snapshot(for id: ManagedObjectID, in store: PersistentStore) throws -> RowSnapshot? {
        if let cached = rowCache[id] {
            if try !store.hasExternalChanges() { return cached }
            rowCache.removeAll()
        }
        let snapshot = try store.snapshot(for: id)
        if let snapshot { rowCache[id] = snapshot }
        return snapshot
    }

    /// The IDs a to-many relationship holds: prefetched ones when there, else from the
    /// store (none when the store holds no destination entity: relationships never cross
    /// stores).
    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try lock.withLock {
            if let prefetched = rowCache.takeRelated(id, relationship: relationship) { return prefetched }
            let store = try store(for: id)
            guard store.holdsDestination(of: relationship) else { return [] }
            return try store.relatedIDs(of: id, relationship: relationship)
        }
    }

    /// The dictionaries of a dictionary fetch, from the one store holding its entities.
    ///
    /// - Throws: `.storeUnsupportedRequest` when several stores hold them: rows of
    ///   several stores are not grouped, aggregated or merged into dictionaries.
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]] {
        try lock.withLock { try singleStore(for: query, request: "A dictionary fetch").fetchDictionaries(query) }
    }

    /// The number of the first store holding rows `query` can match, for keys of its
    /// results (keys of other stores' rows carry their own).
    func storeNumber(for query: StoreFetch) throws -> UInt32 {
        try lock.withLock { try stores(for: query)[0].store.backend.storeNumber }
    }

    /// The keys of the rows `query` matches, in order (for batch-faulting arrays), from
    /// every store holding its entities.
    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys {
        try lock.withLock {
            let targets = try stores(for: query)
            if targets.count == 1 { return try targets[0].store.fetchKeys(targets[0].query) }
            var idQuery = query
            idQuery.includesValues = false
            return StoredKeys(ids: try fetchMerged(idQuery, from: targets).map(\.id), store: targets[0].store.backend.storeNumber)
        }
    }

    /// The rows of `ids`, read in one statement per store and root entity. Not cached:
    /// the objects made from them keep their values, and a batch-faulting walk over a
    /// large store should not fill the cache.
    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] {
        try lock.withLock {
            guard let first = ids.first else { return [] }
            if stores.count == 1 { return try store(for: first).rows(for: ids) }
            return try grouped(ids, by: { $0 }).flatMap { try $0.store.rows(for: $0.items) }
        }
    }

    /// Statements executed by every store so far (reads, for the in-memory store): lets
    /// tests prove that an operation ran no SQL.
    package var executedStatementCount: Int {
        lock.withLock { stores.reduce(0) { $0 + $1.backend.executedStatementCount } }
    }

    /// Rows every store has read so far (SQLite: `sqlite3_step` returning a row, not
    /// counting `PRAGMA data_version` checks): lets tests prove how much a fetch read.
    package var steppedRowCount: Int {
        lock.withLock { stores.reduce(0) { $0 + $1.backend.steppedRowCount } }
    }

    /// Writes `request`, one transaction per store it touches; returns the permanent IDs
    /// of inserted objects.
    ///
    /// Each object is written to its own store (see `split(_:)`); the context validated
    /// every object, and the request was split and routed, before the first store is
    /// written. With several stores the
    /// save is atomic per store only: SQLite commits each file on its own, so when a
    /// later store fails, the earlier ones stay committed (see `commit(_:of:)`, which
    /// throws `IncompleteSave` for the context to mark their objects saved and report
    /// `.storeIncompleteSave`). A failure in the first store written leaves every store
    /// as it was.
    func save(_ request: SaveRequest) throws -> PermanentIDs {
        try lock.withLock {
            let parts = try split(request)
            guard parts.count == 1, let part = parts.first else { return try commit(parts, of: request) }
            return try write(part)
        }
    }

    /// Permanent IDs for `ids`, each from the store it will be saved to (`store`, when
    /// given: `ManagedObjectContext.assign(_:to:)`).
    func obtainPermanentIDs(for ids: [ManagedObjectID], in store: PersistentStore? = nil) throws -> [ManagedObjectID: ManagedObjectID] {
        try lock.withLock {
            if let store {
                guard stores.contains(where: { $0 === store }) else {
                    throw CoreDataError(.storeOperationFailed, "The store \(store.identifier) is not one of this coordinator's stores.")
                }
                return try store.obtainPermanentIDs(for: ids)
            }
            if stores.count == 1 { return try stores[0].obtainPermanentIDs(for: ids) }
            var map: [ManagedObjectID: ManagedObjectID] = [:]
            for group in try grouped(ids, by: { $0 }) {
                map.merge(try group.store.obtainPermanentIDs(for: group.items)) { first, _ in first }
            }
            return map
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
