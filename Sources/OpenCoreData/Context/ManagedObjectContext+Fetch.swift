import Foundation

extension ManagedObjectContext {
    // MARK: - Fetching

    /// The objects (or IDs, dictionaries, or count) that match `request`, including this
    /// context's unsaved changes unless `includesPendingChanges` is false (dictionaries
    /// always reflect the store, as in Core Data).
    ///
    /// A Swift array cannot fault in batches, so with a `fetchBatchSize` this still loads
    /// every object (in one query); use `fetchResults(_:)` for a collection that materialises
    /// objects only when they are read.
    /// `relationshipKeyPathsForPrefetching` is loaded right after the fetch.
    ///
    /// When several stores hold the fetched entity (or its sub-entities), each store is
    /// read and the results are merged, sorted and windowed in memory, and counts are
    /// summed. Dictionary results come from one store only.
    ///
    /// - Throws: `.invalidFetchRequest` for an unknown entity or key, or when objects of
    ///   the fetched entities are not instances of `T` (checked once per fetch, before
    ///   any row is read); `.storeUnsupportedRequest` for dictionary results spanning several stores;
    ///   store errors.
    public func fetch<T: FetchRequestResult>(_ request: FetchRequest<T>) throws -> [T] {
        checkQueue()
        let query = try StoreFetch(request, model: parentStore.managedObjectModel)
        switch request.resultType {
        case .managedObjectResultType:
            var resultClass = try ResultClass<T>(query, context: self)
            return try resultClass.cast(try fetchObjects(query, request: request), entityName: query.entity.name)
        case .managedObjectIDResultType:
            return try fetchObjectIDs(query, request: request).map { id in
                guard let result = id as? T else {
                    throw CoreDataError(.invalidFetchRequest, "Object ID results need FetchRequest<ManagedObjectID>.")
                }
                return result
            }
        case .countResultType:
            let count = try countObjects(query, request: request)
            guard let result = NSNumber(value: count) as? T else {
                throw CoreDataError(.invalidFetchRequest, "A count result needs FetchRequest<NSNumber>.")
            }
            return [result]
        case .dictionaryResultType:
            return try parentStore.fetchDictionaries(query).map { dictionary in
                guard let result = NSDictionary(dictionary: dictionary) as? T else {
                    throw CoreDataError(.invalidFetchRequest, "Dictionary results need FetchRequest<NSDictionary>; use fetchDictionaries(_:) for [String: Any].")
                }
                return result
            }
        }
    }

    /// The results of a `.dictionaryResultType` request as Swift dictionaries: one per
    /// row (or group), keyed by the fetched property names, key paths and expression
    /// names. Nil values are left out; relationships come back as `ManagedObjectID`s.
    /// As in Core Data, unsaved changes are not seen: the results reflect the store.
    /// The fetched entity must be held by one store: rows of several stores are not
    /// grouped, aggregated or merged into dictionaries.
    ///
    /// - Throws: `.invalidFetchRequest` for another result type, an unknown, transient or
    ///   to-many property, a plain property that is not grouped by in a grouped fetch, a
    ///   HAVING without GROUP BY, or an unsupported expression; `.storeUnsupportedRequest`
    ///   when several stores hold the fetched entities; store errors.
    public func fetchDictionaries<T: FetchRequestResult>(_ request: FetchRequest<T>) throws -> [[String: Any]] {
        checkQueue()
        guard request.resultType == .dictionaryResultType else {
            throw CoreDataError(.invalidFetchRequest, "fetchDictionaries(_:) needs resultType .dictionaryResultType.")
        }
        let query = try StoreFetch(request, model: parentStore.managedObjectModel)
        return try parentStore.fetchDictionaries(query)
    }

    /// How many objects match `request`, without loading them.
    public func count<T: FetchRequestResult>(for request: FetchRequest<T>) throws -> Int {
        checkQueue()
        let query = try StoreFetch(request, model: parentStore.managedObjectModel)
        return try countObjects(query, request: request)
    }

    /// The objects `request` matches; with its pending changes merged around a window the
    /// store reads (see `PendingFetch`) unless `includesPendingChanges` is false.
    func fetchObjects<T>(_ query: StoreFetch, request: FetchRequest<T>) throws -> [ManagedObject] {
        processPendingChanges()
        adoptKnownPermanentIDs()
        let pending = request.includesPendingChanges ? PendingFetch(query, in: self) : nil
        let rows = try parentStore.fetch(pending?.storeQuery ?? query)
        var objects: [ManagedObject] = []
        objects.reserveCapacity(rows.count)
        registry.reserveCapacity(registry.count + rows.count)
        for row in rows {
            let object = registerFetched(row.id, snapshot: row.snapshot)
            if !request.returnsObjectsAsFaults && object.faulted { object.willAccessValues() }
            objects.append(object)
        }
        try parentStore.prefetch(query.prefetchPaths, from: rows)
        guard let pending else { return objects }
        return try pending.merge(objects)
    }

    private func fetchObjectIDs<T>(_ query: StoreFetch, request: FetchRequest<T>) throws -> [ManagedObjectID] {
        processPendingChanges()
        adoptKnownPermanentIDs()
        if request.includesPendingChanges && PendingFetch(query, in: self) != nil {
            return try fetchObjects(query, request: request).map(\.objectID)
        }
        var idQuery = query
        idQuery.includesValues = false
        return try parentStore.fetch(idQuery).map(\.id)
    }

    private func countObjects<T>(_ query: StoreFetch, request: FetchRequest<T>) throws -> Int {
        processPendingChanges()
        adoptKnownPermanentIDs()
        if request.includesPendingChanges, let pending = PendingFetch(query, in: self) {
            return try pending.count(in: parentStore)
        }
        return try parentStore.count(query)
    }

    /// The registered object for a fetched row, creating a fault when there is none.
    func registerFetched(_ id: ManagedObjectID, snapshot: RowSnapshot?) -> ManagedObject {
        if let existing = registry[id] {
            let object = existing.takeUnretainedValue()
            // A fault takes the row just read: it may be newer than a snapshot the fault
            // kept (after a rollback), and older values would only conflict at save.
            object.takeStoreSnapshot(snapshot)
            return object
        }
        let entity = id.entity
        let object = objectClass(for: entity).init(entity: entity, insertInto: nil)
        object.becomeFault(for: id, snapshot: snapshot)
        object.attach(to: self)
        // A parent's unsaved insert, read through it: its permanent ID comes later.
        if id.isTemporaryID, parent != nil { nested.provisionalIDs.insert(id) }
        return object
    }

    // MARK: - Objects by ID

    /// The object with `objectID`: the registered one, or a fault that loads when touched.
    /// A fault whose row does not exist reads as deleted (see `existingObject(with:)`).
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        checkQueue()
        return registerFetched(objectID, snapshot: nil)
    }

    /// The object with `objectID`, loaded now.
    ///
    /// - Throws: `.objectNotFound` when no such object exists in the store, or when the ID
    ///   is of a store this context's coordinator does not have (or of another model).
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkQueue()
        if let registered = registeredObject(for: objectID), !registered.isInaccessible { return registered }
        guard !objectID.isTemporaryID || parent != nil, let snapshot = try parentStore.snapshot(for: objectID) else {
            throw CoreDataError(.objectNotFound, "No \(objectID.entity.name) with ID \(objectID) exists.", objectID: objectID)
        }
        let object = registerFetched(objectID, snapshot: snapshot)
        object.willAccessValues()
        return object
    }

    /// Loads a fault's values from the parent store (for a coordinator, its row cache or
    /// the store), or from the row the fault kept unless a `stalenessInterval` is set.
    func fulfillFault(_ object: ManagedObject) {
        let maxAge = stalenessInterval
        if maxAge < 0, let snapshot = object.committed {
            object.adopt(snapshot)
            return
        }
        do {
            let found = maxAge < 0 ? try parentStore.snapshot(for: object.objectID) : try parentStore.snapshot(for: object.objectID, maxAge: maxAge)
            if let snapshot = found {
                object.adopt(snapshot)
            } else {
                object.becomeInaccessible()
            }
        } catch {
            lastFaultError = error as? CoreDataError
            object.becomeInaccessible()
        }
    }

    /// The IDs a to-many relationship holds in the store. When they cannot be read the
    /// relationship reads as empty, and is recorded so that `save()` refuses to write it.
    func loadRelatedIDs(of object: ManagedObject, relationship: RelationshipDescription, slot: Int) -> [ManagedObjectID] {
        let key = UnreadRelationship(object: object.objectID, slot: slot)
        do {
            let ids = try storedRelatedIDs(of: object, relationship: relationship)
            if !unreadRelationships.isEmpty { unreadRelationships[key] = nil }
            return ids
        } catch {
            let failure = error as? CoreDataError ?? CoreDataError(.storeOperationFailed, "\(error)")
            lastFaultError = failure
            unreadRelationships[key] = failure
            return []
        }
    }

    func storedRelatedIDs(of object: ManagedObject, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        guard object.hasStoredState else { return [] }
        return try parentStore.relatedIDs(of: object.objectID, relationship: relationship)
    }
}
