import Foundation

/// A save over several stores: the request split per store, then committed store by
/// store. Called under the coordinator's lock.
extension PersistentStoreCoordinator {
    /// One store's share of a save, with the positions of its inserts in the whole
    /// request (left empty when the part is the whole request).
    struct SavePart {
        let store: PersistentStore
        var request: SaveRequest
        var insertPositions: [Int] = []
    }

    /// `request` split by store, in the order the stores were added: each insert, update
    /// and delete goes to its object's store, each to-many change to its owner's.
    ///
    /// - Throws: `.objectNotFound` for an object of a store this coordinator does not
    ///   have; `.storeOperationFailed` for a new object no store holds.
    func split(_ request: SaveRequest) throws -> [SavePart] {
        if request.isEmpty { return [] }
        if stores.count == 1 {
            // One store: nothing to split; only saved objects of another store are refused.
            let store = stores[0]
            let number = store.backend.storeNumber
            let layout = managedObjectModel.layout
            for row in request.updates where row.id.store != number || !layout.holds(row.id) { _ = try self.store(for: row.id) }
            for deletion in request.deletes where deletion.id.store != number || !layout.holds(deletion.id) { _ = try self.store(for: deletion.id) }
            return [SavePart(store: store, request: request)]
        }
        var parts: [SavePart] = []
        func part(for id: ManagedObjectID) throws -> Int {
            let store = try store(for: id)
            if let index = parts.firstIndex(where: { $0.store === store }) { return index }
            var empty = SaveRequest()
            empty.refersToObjects = request.refersToObjects
            parts.append(SavePart(store: store, request: empty))
            return parts.count - 1
        }
        for (position, row) in request.inserts.enumerated() {
            let index = try part(for: row.id)
            parts[index].request.inserts.append(row)
            parts[index].insertPositions.append(position)
        }
        for row in request.updates { parts[try part(for: row.id)].request.updates.append(row) }
        for deletion in request.deletes { parts[try part(for: deletion.id)].request.deletes.append(deletion) }
        for change in request.toManyChanges { parts[try part(for: change.owner)].request.toManyChanges.append(change) }
        let order = Dictionary(uniqueKeysWithValues: stores.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
        return parts.sorted { order[ObjectIdentifier($0.store), default: 0] < order[ObjectIdentifier($1.store), default: 0] }
    }

    /// Commits each part in its own transaction, in order; returns the permanent IDs of
    /// every insert, in the order of `request.inserts`.
    ///
    /// SQLite cannot commit two files atomically. If a store fails after earlier ones
    /// committed, those commits stay: this throws `IncompleteSave`, whose error
    /// (`.storeIncompleteSave`) names the stores that committed, with what they now hold
    /// for the context to mark as saved. A failure in the first store written leaves
    /// every store unchanged and throws that store's error.
    func commit(_ parts: [SavePart], of request: SaveRequest) throws -> PermanentIDs {
        var permanent = request.inserts.map(\.id)
        var committed: [SavePart] = []
        for part in parts {
            let map: PermanentIDs
            do {
                map = try write(part)
            } catch {
                let conflicts = (error as? StoreConflicts)?.conflicts ?? []
                guard !committed.isEmpty else { throw error }
                let failure = error as? CoreDataError
                    ?? CoreDataError(.mergeConflict, "\(conflicts.count) object(s) changed in \(part.store) since the context read them.")
                throw IncompleteSave(failure: failure, conflicts: conflicts, in: part.store, committed: committed, permanent: permanent, of: request)
            }
            committed.append(part)
            for (index, position) in part.insertPositions.enumerated() { permanent[position] = map.permanent[index] }
        }
        return PermanentIDs(temporary: request.inserts.map(\.id), permanent: permanent, needsLookup: request.refersToObjects)
    }

    /// Writes one store's part in its transaction and records what it wrote in the row
    /// cache. On conflicts the conflicting rows leave the cache, which is stale for them:
    /// the next read (a refresh) must see the store.
    func write(_ part: SavePart) throws -> PermanentIDs {
        do {
            let map = try part.store.save(part.request)
            rowCache.didSave(part.request, permanentIDs: map)
            noteWrite(to: part.store)
            return map
        } catch let conflicts as StoreConflicts {
            rowCache.evict(conflicts.conflicts.map(\.id))
            throw conflicts
        }
    }

    /// `items` grouped by the store holding the object each names (`id`), in the order
    /// the stores were added.
    func grouped<Item>(_ items: [Item], by id: (Item) -> ManagedObjectID) throws -> [(store: PersistentStore, items: [Item])] {
        var groups: [(store: PersistentStore, items: [Item])] = []
        for item in items {
            let store = try store(for: id(item))
            if let index = groups.firstIndex(where: { $0.store === store }) {
                groups[index].items.append(item)
            } else {
                groups.append((store, [item]))
            }
        }
        return groups
    }
}

/// A save over several stores that committed to some of them, then failed in another.
/// Thrown by the coordinator's `save` only to the context, which marks the committed
/// objects as saved and throws `error` (`.storeIncompleteSave`) in its place.
struct IncompleteSave: Error, @unchecked Sendable {
    // @unchecked Sendable: thrown and caught on the saving context's thread (the
    // context turns it into a `CoreDataError`); it never crosses threads.
    var error: CoreDataError
    /// The rows of the failed store that were in conflict (its failure is `.mergeConflict`).
    let conflicts: [StoreVersionConflict]
    /// The temporary IDs of the committed inserts, in request order, with their permanent IDs.
    let permanentIDs: PermanentIDs
    /// The updated and deleted objects the committed stores now hold as saved.
    let savedIDs: Set<ManagedObjectID>

    init(failure: CoreDataError, conflicts: [StoreVersionConflict], in store: PersistentStore, committed: [PersistentStoreCoordinator.SavePart], permanent: [ManagedObjectID], of request: SaveRequest) {
        let names = committed.map(\.store.description).joined(separator: ", ")
        error = CoreDataError(.storeIncompleteSave,
            "The save committed to \(names), then failed in \(store): \(failure.message) The objects of the committed stores are saved; the others keep their changes.",
            objectID: failure.objectID, key: failure.key, underlyingErrors: [failure])
        self.conflicts = conflicts
        let positions = committed.flatMap(\.insertPositions).sorted()
        permanentIDs = PermanentIDs(temporary: positions.map { request.inserts[$0].id }, permanent: positions.map { permanent[$0] }, needsLookup: request.refersToObjects)
        savedIDs = Set(committed.flatMap { $0.request.updates.map(\.id) + $0.request.deletes.map(\.id) })
    }
}
