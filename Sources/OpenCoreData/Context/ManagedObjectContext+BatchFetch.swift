import Foundation

extension ManagedObjectContext {
    // MARK: - Batch faulting

    /// The objects that match `request`, as a `BatchFaultingArray` that loads
    /// `request.fetchBatchSize` objects at a time (all at once when it is 0).
    ///
    /// One query records the identities of every match, in order (honouring the
    /// predicate, sort descriptors, `fetchLimit` and `fetchOffset`); each batch is then
    /// loaded with one more query when first read, prefetching
    /// `relationshipKeyPathsForPrefetching` for it.
    ///
    /// With `includesPendingChanges` and unsaved changes to the fetched entities, the
    /// whole request is evaluated with those changes now, as `fetch(_:)` does, and the
    /// resulting order is kept the same way (inserted objects are held by the array).
    ///
    /// - Throws: `.invalidFetchRequest` for a result type other than managed objects, or
    ///   when objects of the fetched entities are not instances of `T`; as `fetch(_:)`.
    public func fetchBatched<T: ManagedObject>(_ request: FetchRequest<T>) throws -> BatchFaultingArray<T> {
        let query = try StoreFetch(request, model: coordinator.managedObjectModel)
        guard request.resultType == .managedObjectResultType else {
            throw CoreDataError(.invalidFetchRequest, "fetchBatched(_:) returns managed objects; set resultType to .managedObjectResultType.")
        }
        for number in query.entityNumbers {
            guard let entity = coordinator.managedObjectModel.layout.entitiesByNumber[number], !entity.isAbstract else { continue }
            guard objectClass(for: entity) is T.Type else {
                throw CoreDataError(.invalidFetchRequest, "A fetch of \(query.entity.name) returns \(entity.name) objects, which are not \(T.self). Register the subclass with ManagedObjectClasses.register(_:) or fetch ManagedObject.")
            }
        }
        processPendingChanges()
        let batchSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : Int.max
        guard request.includesPendingChanges && hasPendingChanges(in: query) else {
            return BatchFaultingArray(context: self, keys: try coordinator.fetchKeys(query), batchSize: batchSize,
                                      prefetchPaths: query.prefetchPaths, firesFaults: !request.returnsObjectsAsFaults)
        }
        let merged = try fetchObjects(query, request: request)
        var keys = StoredKeys(store: try coordinator.storeNumber(for: query))
        var inserted: [ManagedObject] = []
        for object in merged {
            if let key = object.objectID.primaryKey {
                keys.append(primaryKey: key, entityNumber: Int32(object.entity.slots.number), store: object.objectID.store)
            } else {
                inserted.append(object)
                keys.append(primaryKey: -Int64(inserted.count), entityNumber: Int32(object.entity.slots.number), store: 0)
            }
        }
        return BatchFaultingArray(context: self, keys: keys, inserted: inserted, batchSize: batchSize,
                                  prefetchPaths: query.prefetchPaths, firesFaults: !request.returnsObjectsAsFaults)
    }

    /// The objects with `ids`, in order: registered ones as they are, the others (and
    /// faults without values) loaded with one query, then the relationships of
    /// `prefetching` loaded for them. A row that no longer exists gives a fault that
    /// reads as deleted.
    func materialize(_ ids: [ManagedObjectID], prefetching paths: [[RelationshipDescription]], firesFaults: Bool) -> [ManagedObject] {
        var missing: [ManagedObjectID] = []
        for id in ids where !id.isTemporaryID {
            if let registered = registeredObject(for: id), !(registered.faulted && registered.committed == nil) { continue }
            missing.append(id)
        }
        var snapshots: [ManagedObjectID: RowSnapshot] = [:]
        do {
            let rows = try coordinator.rows(for: missing)
            snapshots.reserveCapacity(rows.count)
            for row in rows { snapshots[row.id] = row.snapshot }
            try coordinator.prefetch(paths, from: rows)
        } catch {
            lastFaultError = error as? CoreDataError
        }
        return ids.map { id in
            let object = registerFetched(id, snapshot: snapshots[id])
            if firesFaults && object.faulted { object.willAccessValues() }
            return object
        }
    }
}
