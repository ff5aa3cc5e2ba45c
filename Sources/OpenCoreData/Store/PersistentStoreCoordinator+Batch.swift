import Foundation

/// Batch requests, run in the store under the coordinator's lock. Each one empties the
/// row cache afterwards, so no context is served a row as it was before the request.
///
/// A batch request runs in one store, in one transaction: one that would span several
/// stores (an entity, or sub-entities, held by several, or objects of several) throws
/// `.storeUnsupportedRequest` and changes nothing.
extension PersistentStoreCoordinator {
    /// Inserts the request's rows in one transaction; returns their IDs, in order.
    func batchInsert(_ request: BatchInsertRequest) throws -> [ManagedObjectID] {
        let save = try BatchInsertPlan.rows(for: request, model: managedObjectModel)
        guard let first = save.inserts.first else { return [] }
        return try lock.withLock {
            let store = try singleStore(holding: [first.id.entity.slots.number], of: first.id.entity, for: "A batch insert")
            var save = save
            save.origin = request.origin
            let map = try store.save(save)
            rowCache.removeAll()
            noteWrite(to: store)
            return map.permanent
        }
    }

    /// Updates the matching rows in one transaction; returns their IDs.
    func batchUpdate(_ request: BatchUpdateRequest) throws -> [ManagedObjectID] {
        let plan = try BatchUpdatePlan(request, model: managedObjectModel)
        return try lock.withLock {
            let store = try singleStore(for: plan.fetch, request: "A batch update")
            let ids = try store.batchUpdate(plan, origin: request.origin)
            rowCache.removeAll()
            noteWrite(to: store)
            return ids
        }
    }

    /// Deletes the request's objects and what their cascade rules reach, in one
    /// transaction; returns the IDs of every deleted object, or only their count when the
    /// IDs are not wanted and the store could delete without reading them.
    func batchDelete(_ request: BatchDeleteRequest) throws -> (ids: [ManagedObjectID]?, count: Int) {
        try lock.withLock {
            let store: PersistentStore
            let ids: [ManagedObjectID]
            switch request.target {
            case .matching(let resolve):
                let fetch = try resolve(managedObjectModel)
                store = try singleStore(for: fetch, request: "A batch delete")
                // With persistent history every deleted row is read and recorded.
                if request.resultType != .resultTypeObjectIDs, BatchDeleteRules.touchesNoRelationship(fetch.entity),
                   !store.recordsHistory, let count = try store.deleteMatching(fetch) {
                    rowCache.removeAll()
                    noteWrite(to: store)
                    return (nil, count)
                }
                let keys = try store.fetchKeys(fetch)
                ids = (0..<keys.count).map { keys.objectID(at: $0, layout: managedObjectModel.layout) }
            case .objects(let given):
                guard let first = given.first else { return ([], 0) }
                guard given.allSatisfy({ $0.entity.rootEntity === first.entity.rootEntity }) else {
                    throw CoreDataError(.invalidFetchRequest, "A batch delete by object IDs needs IDs of one entity; these mix \(Set(given.map(\.entity.name)).sorted().joined(separator: ", ")).")
                }
                let groups = try grouped(given, by: { $0 })
                guard groups.count == 1 else {
                    throw CoreDataError(.storeUnsupportedRequest, "A batch delete by object IDs names objects of several persistent stores (\(groups.map(\.store.description).joined(separator: ", "))); it runs against one store only.")
                }
                store = groups[0].store
                ids = given
            }
            let deleted = try BatchDeleteRules.closure(of: ids, in: store)
            guard !deleted.isEmpty else { return ([], 0) }
            _ = try store.batchDelete(deleted, origin: request.origin)
            rowCache.removeAll()
            noteWrite(to: store)
            return (deleted, deleted.count)
        }
    }
}
