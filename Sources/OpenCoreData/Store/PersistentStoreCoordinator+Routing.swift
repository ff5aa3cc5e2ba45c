import Foundation

/// Which store an object, an ID or a fetch goes to. Every function here is called under
/// the coordinator's lock.
///
/// As in Core Data, a new object goes to the first store (in the order they were added)
/// whose configuration holds its entity, unless `ManagedObjectContext.assign(_:to:)`
/// chose another; a saved object stays in the store its permanent ID names; a fetch
/// reads every store holding the fetched entity or one of its sub-entities.
extension PersistentStoreCoordinator {
    /// The store a new object of `entity` is saved to.
    func store(for entity: EntityDescription) throws -> PersistentStore {
        guard let store = stores.first(where: { $0.holds(entity) }) else {
            throw Self.noStore(holding: entity)
        }
        return store
    }

    /// The store holding the object `id` names: the store its permanent ID names, or for
    /// a temporary ID the store its entity goes to.
    ///
    /// - Throws: `.objectNotFound` for an ID of another model or of a store this
    ///   coordinator does not have (another coordinator's store, or one removed): such an
    ///   ID never reaches a store, which could otherwise answer with its own row of the
    ///   same primary key.
    func store(for id: ManagedObjectID) throws -> PersistentStore {
        guard managedObjectModel.layout.holds(id) else {
            throw CoreDataError(.objectNotFound, "\(id) belongs to another model than this coordinator's; look objects up by ID only in contexts of the coordinator that made the ID.", objectID: id)
        }
        if id.isTemporaryID { return try store(for: id.entity) }
        if let store = stores.first(where: { $0.backend.storeNumber == id.store }) { return store }
        throw CoreDataError(.objectNotFound, "\(id) belongs to a persistent store this coordinator does not have (another coordinator's, or one removed).", objectID: id)
    }

    /// The stores holding rows `query` can match, each with the query narrowed to the
    /// entities it holds; the query as it is when one store holds them all.
    func stores(for query: StoreFetch) throws -> [(store: PersistentStore, query: StoreFetch)] {
        if stores.count == 1, stores[0].holdsAllEntities { return [(stores[0], query)] }
        var found: [(store: PersistentStore, query: StoreFetch)] = []
        for store in stores where !store.entityNumbers.isDisjoint(with: query.entityNumbers) {
            found.append((store, store.entityNumbers.isSuperset(of: query.entityNumbers) ? query : query.narrowed(to: store.entityNumbers)))
        }
        guard !found.isEmpty else {
            throw Self.noStore(holding: query.entity)
        }
        return found
    }

    /// The one store holding the entities numbered `numbers`, for requests that cannot
    /// span stores (dictionary fetches, batch requests).
    ///
    /// - Throws: `.storeUnsupportedRequest` when several stores hold them.
    func singleStore(holding numbers: Set<Int>, of entity: EntityDescription, for request: String) throws -> PersistentStore {
        if stores.count == 1, stores[0].holdsAllEntities { return stores[0] }
        let found = stores.filter { !$0.entityNumbers.isDisjoint(with: numbers) }
        guard found.count <= 1 else {
            throw CoreDataError(.storeUnsupportedRequest, "\(request) of \(entity.name) would span several persistent stores (\(found.map(\.description).joined(separator: ", "))); it runs against one store only.")
        }
        guard let store = found.first else {
            throw Self.noStore(holding: entity)
        }
        return store
    }

    /// The one store holding the rows `query` can match; see `singleStore(holding:of:for:)`.
    func singleStore(for query: StoreFetch, request: String) throws -> PersistentStore {
        try singleStore(holding: query.entityNumbers, of: query.entity, for: request)
    }

    /// The error for an entity no store of the coordinator holds.
    private static func noStore(holding entity: EntityDescription) -> CoreDataError {
        CoreDataError(.storeOperationFailed, "No persistent store holds entity '\(entity.name)'. Add a store first.")
    }
}
