import Foundation

extension ManagedObjectContext {
    // MARK: - Batch requests

    /// Runs a batch request in the store, without loading objects, and returns its
    /// result (`BatchInsertResult`, `BatchUpdateResult` or `BatchDeleteResult`).
    ///
    /// The context's objects are not changed: merge the result's object IDs with
    /// `mergeChanges(fromRemoteContextSave:into:)`. A request that fails changes nothing.
    /// A request runs in one store: its entity (with sub-entities) or objects must be
    /// held by one store of the coordinator.
    ///
    /// - Throws: `.invalidFetchRequest` for an unknown entity or key or an unsupported
    ///   value; `.validationWrongType` / `.validationMissingMandatoryProperty` for bad
    ///   values; `.constraintViolation`; `.validationRelationshipDeniedDelete`;
    ///   `.storeUnsupportedRequest` for a request spanning several stores; store errors.
    public func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        checkQueue()
        request.origin = transactionOrigin
        switch request {
        case let insert as BatchInsertRequest:
            let ids = try parentStore.batchInsert(insert)
            switch insert.resultType {
            case .statusOnly: return BatchInsertResult(result: true)
            case .objectIDs: return BatchInsertResult(result: ids)
            case .count: return BatchInsertResult(result: ids.count)
            }
        case let update as BatchUpdateRequest:
            let ids = try parentStore.batchUpdate(update)
            switch update.resultType {
            case .statusOnlyResultType: return BatchUpdateResult(result: true)
            case .updatedObjectIDsResultType: return BatchUpdateResult(result: ids)
            case .updatedObjectsCountResultType: return BatchUpdateResult(result: ids.count)
            }
        case let delete as BatchDeleteRequest:
            let (ids, count) = try parentStore.batchDelete(delete)
            switch delete.resultType {
            case .resultTypeStatusOnly: return BatchDeleteResult(result: true)
            case .resultTypeObjectIDs: return BatchDeleteResult(result: ids ?? [])
            case .resultTypeCount: return BatchDeleteResult(result: count)
            }
        default:
            throw CoreDataError(.invalidFetchRequest, "Unknown persistent store request \(type(of: request)).")
        }
    }

    // MARK: - Merging changes made elsewhere

    /// Brings `contexts` up to date with changes saved elsewhere (another coordinator, a
    /// batch request), given as arrays of object IDs under `InsertedObjectsKey`,
    /// `UpdatedObjectsKey` and `DeletedObjectsKey` (or the `…_objectIDs` keys): each
    /// context merges them as `mergeChanges(fromContextDidSave:)` does — updated objects
    /// refreshed (their unsaved changes kept on top), deleted ones leaving the context and
    /// the loaded relationships of other objects, inserted ones registered — and posts one
    /// `didChangeObjectsNotification`. Each context is updated on its own queue.
    public static func mergeChanges(fromRemoteContextSave changes: [String: [ManagedObjectID]], into contexts: [ManagedObjectContext]) {
        let saved = ObjectChanges(savedIn: changes)
        for context in contexts {
            context.performAndWait { context.merge(saved) }
        }
    }
}
