import Foundation

/// A context is the parent store of its child contexts (`ManagedObjectContext.parent`):
/// every requirement is answered on the parent's queue from its registered and pending
/// objects, layered over its own parent store (a coordinator, or a parent context in
/// turn, so grandchildren work alike).
///
/// Reads see the parent's unsaved changes: fetches and counts merge its pending objects
/// exactly as its own fetches do (`PendingFetch`), and an object the parent holds loaded
/// is read with the parent's values. Each row carries the parent's version of the object
/// (`NestedContextState.versions`) in place of the store's `Z_OPT`, so that a child's
/// save of an object the parent changed since is a conflict. Dictionary fetches, batch
/// requests, permanent IDs and store lookups go down to the coordinator.
extension ManagedObjectContext: ParentObjectStore {
    // MARK: Identity

    var managedObjectModel: ManagedObjectModel { parentStore.managedObjectModel }

    func storeNumber(for query: StoreFetch) throws -> UInt32 {
        try parentStore.storeNumber(for: query)
    }

    func withStoreOf<T>(_ body: (_ storeOf: (ManagedObjectID) -> PersistentStore?) -> T) -> T {
        parentStore.withStoreOf(body)
    }

    // MARK: Reading

    func fetch(_ query: StoreFetch) throws -> [FetchedRow] {
        try performAndWait {
            prepareToAnswerChild()
            guard let pending = PendingFetch(query, in: self) else {
                return try parentStore.fetch(query).map(childRow)
            }
            let stored = try parentStore.fetch(pending.storeQuery).map { registerFetched($0.id, snapshot: $0.snapshot) }
            return try pending.merge(stored).map(childRow)
        }
    }

    func count(_ query: StoreFetch) throws -> Int {
        try performAndWait {
            prepareToAnswerChild()
            var query = query
            query.excludedIDs = query.excludedIDs.map(nested.resolve)
            if let pending = PendingFetch(query, in: self) { return try pending.count(in: parentStore) }
            return try parentStore.count(query)
        }
    }

    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        try performAndWait {
            prepareToAnswerChild()
            let id = nested.resolve(id)
            if let object = registeredObject(for: id) {
                if object.isPendingDelete || object.isInaccessible { return nil }
                if let row = childRow(object).snapshot { return row }
            }
            guard !id.isTemporaryID || parentStore is ManagedObjectContext else { return nil }
            return try parentStore.snapshot(for: id).map { childSnapshot($0, of: id) }
        }
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        try performAndWait {
            prepareToAnswerChild()
            let id = nested.resolve(id)
            if let object = registeredObject(for: id), !object.faulted, let slot = object.slots.slotByName[relationship.name] {
                if object.isInaccessible { return [] }
                if let loaded = object.toMany[slot] { return loaded.ordered }
            }
            guard !id.isTemporaryID || parentStore is ManagedObjectContext else { return [] }
            return try parentStore.relatedIDs(of: id, relationship: relationship)
        }
    }

    /// Keys hold primary keys only: with unsaved inserts of the parent among the matches
    /// there are none to give (a child's `fetchResults` merges through `fetch` instead).
    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys {
        try performAndWait {
            prepareToAnswerChild()
            guard PendingFetch(query, in: self) != nil else { return try parentStore.fetchKeys(query) }
            let ids = try fetch(query).map(\.id)
            guard !ids.contains(where: \.isTemporaryID) else {
                throw CoreDataError(.storeUnsupportedRequest, "The parent context's unsaved inserts have no stored keys; fetch the objects instead.")
            }
            return StoredKeys(ids: ids, store: try parentStore.storeNumber(for: query))
        }
    }

    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] {
        try performAndWait {
            prepareToAnswerChild()
            var rows: [FetchedRow] = []
            var missing: [ManagedObjectID] = []
            for id in ids {
                let resolved = nested.resolve(id)
                guard let object = registeredObject(for: resolved), !object.faulted || object.isPendingDelete else {
                    if !resolved.isTemporaryID { missing.append(resolved) }
                    continue
                }
                guard !object.isPendingDelete, !object.isInaccessible else { continue }
                rows.append(FetchedRow(id: id, snapshot: childRow(object).snapshot))
            }
            return try rows + parentStore.rows(for: missing).map(childRow)
        }
    }

    /// Loads ahead, in the stores, the relationships of the rows this context does not
    /// answer itself (objects it holds loaded are read from it).
    func prefetch(_ paths: [[RelationshipDescription]], from rows: [FetchedRow]) throws {
        guard !paths.isEmpty, !rows.isEmpty else { return }
        try performAndWait {
            let stored = rows.filter { row in
                !row.id.isTemporaryID && registeredObject(for: row.id).map { $0.faulted && !$0.hasChanges } ?? true
            }
            try parentStore.prefetch(paths, from: stored)
        }
    }

    /// Dictionaries reflect the store, as a context's own dictionary fetches do.
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]] {
        try parentStore.fetchDictionaries(query)
    }

    // MARK: Writing

    func save(_ request: SaveRequest) throws -> PermanentIDs {
        try performAndWait { try receiveChildSave(request) }
    }

    /// Objects this context holds with temporary IDs get their permanent IDs here first
    /// (and keep them), so that child and parent agree; the others' come from below.
    func obtainPermanentIDs(for ids: [ManagedObjectID], in store: PersistentStore?) throws -> [ManagedObjectID: ManagedObjectID] {
        try performAndWait {
            prepareToAnswerChild()
            var map: [ManagedObjectID: ManagedObjectID] = [:]
            var own: [ManagedObject] = []
            var below: [ManagedObjectID] = []
            for id in ids {
                let resolved = nested.resolve(id)
                if resolved != id {
                    map[id] = resolved
                } else if let object = registeredObject(for: id) {
                    own.append(object)
                } else {
                    below.append(id)
                }
            }
            if !own.isEmpty {
                let temporary = own.map(\.objectID)
                adoptPermanentIDs(try parentStore.obtainPermanentIDs(for: temporary, in: store), for: own)
                for (id, object) in zip(temporary, own) { map[id] = object.objectID }
            }
            if !below.isEmpty {
                map.merge(try parentStore.obtainPermanentIDs(for: below, in: store)) { first, _ in first }
            }
            return map
        }
    }

    func batchInsert(_ request: BatchInsertRequest) throws -> [ManagedObjectID] {
        try parentStore.batchInsert(request)
    }

    func batchUpdate(_ request: BatchUpdateRequest) throws -> [ManagedObjectID] {
        try parentStore.batchUpdate(request)
    }

    func batchDelete(_ request: BatchDeleteRequest) throws -> (ids: [ManagedObjectID]?, count: Int) {
        try parentStore.batchDelete(request)
    }

    // MARK: - Rows as a child reads them

    /// A row from below, with this context's version of the object.
    private func childRow(_ row: FetchedRow) -> FetchedRow {
        FetchedRow(id: row.id, snapshot: row.snapshot.map { childSnapshot($0, of: row.id) })
    }

    /// A snapshot from below of the object `id`, with this context's version of it.
    private func childSnapshot(_ snapshot: RowSnapshot, of id: ManagedObjectID) -> RowSnapshot {
        RowSnapshot(values: snapshot.values, version: nested.version(of: id, base: snapshot.version))
    }

    /// The row of one of this context's objects: its values here (a fault's stored ones).
    private func childRow(_ object: ManagedObject) -> FetchedRow {
        let values = object.faulted ? object.committed?.values : object.values
        let id = object.objectID
        let version = nested.version(of: id, base: object.committed?.version)
        return FetchedRow(id: id, snapshot: values.map { RowSnapshot(values: $0, version: version) })
    }
}
