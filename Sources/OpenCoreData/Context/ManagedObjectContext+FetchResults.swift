import Foundation

extension ManagedObjectContext {
    // MARK: - Key-holding results

    /// The objects that match `request`, as a `FetchResults` collection that holds only
    /// their keys and materialises an object when it is read — Core Data's
    /// batch-faulting array, which `fetch` returns there when `fetchBatchSize` is set.
    ///
    /// One query records the keys of every match, in order (honouring the predicate,
    /// sort descriptors, `fetchLimit` and `fetchOffset`) without reading their values.
    /// Reading an element then materialises it alone (`fetchBatchSize` 0: a fault, or a
    /// loaded object when `returnsObjectsAsFaults` is false) or loads its whole batch
    /// with one more query, prefetching `relationshipKeyPathsForPrefetching` for it.
    ///
    /// Reading only the keys makes "fetch many, read a few" cost a key per result and a
    /// query per object read; set `fetchBatchSize` to read most of them.
    ///
    /// With `includesPendingChanges` and unsaved changes to the fetched entities, the
    /// whole request is evaluated with those changes now, as `fetch(_:)` does, and the
    /// resulting order is kept the same way (inserted objects are held by the collection).
    ///
    /// ```swift
    /// let request = FetchRequest<Item>()
    /// request.sortDescriptors = [CDSortDescriptor(key: "order", ascending: true)]
    /// let items = try context.fetchResults(request)    // keys only
    /// print(items.count, items[items.count / 2].title)  // one object materialised
    /// ```
    ///
    /// - Throws: `.invalidFetchRequest` for a result type other than managed objects, or
    ///   when objects of the fetched entities are not instances of `T`; as `fetch(_:)`.
    public func fetchResults<T: ManagedObject>(_ request: FetchRequest<T>) throws -> FetchResults<T> {
        let query = try StoreFetch(request, model: parentStore.managedObjectModel)
        guard request.resultType == .managedObjectResultType else {
            throw CoreDataError(.invalidFetchRequest, "fetchResults(_:) returns managed objects; set resultType to .managedObjectResultType.")
        }
        let resultClass = try ResultClass<T>(query, context: self)
        processPendingChanges()
        adoptKnownPermanentIDs()
        // A parent context's unsaved inserts have no keys: a child always merges.
        guard request.includesPendingChanges && (PendingFetch(query, in: self) != nil || parent != nil) else {
            return FetchResults(context: self, keys: try parentStore.fetchKeys(query), resultClass: resultClass, batchSize: request.fetchBatchSize,
                                prefetchPaths: query.prefetchPaths, firesFaults: !request.returnsObjectsAsFaults)
        }
        let merged = try fetchObjects(query, request: request)
        var keys = StoredKeys(store: try parentStore.storeNumber(for: query))
        var inserted: [ManagedObject] = []
        for object in merged {
            if let key = object.objectID.primaryKey {
                keys.append(primaryKey: key, entityNumber: Int32(object.entity.slots.number), store: object.objectID.store)
            } else {
                inserted.append(object)
                keys.append(primaryKey: -Int64(inserted.count), entityNumber: Int32(object.entity.slots.number), store: 0)
            }
        }
        return FetchResults(context: self, keys: keys, inserted: inserted, resultClass: resultClass, batchSize: request.fetchBatchSize,
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
            let rows = try parentStore.rows(for: missing)
            snapshots.reserveCapacity(rows.count)
            for row in rows { snapshots[row.id] = row.snapshot }
            try parentStore.prefetch(paths, from: rows)
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
