import Foundation

/// A request a context hands to its stores with `execute(_:)`: one of the batch requests
/// (`BatchInsertRequest`, `BatchUpdateRequest`, `BatchDeleteRequest`), which change rows
/// in the store directly, without loading objects — Core Data's `NSPersistentStoreRequest`.
///
/// As in Core Data, contexts do not see a batch request's changes by themselves: ask for
/// object IDs as the result and pass them to
/// `ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`. A failing batch
/// request (a bad value, a violated constraint, a deny rule) changes nothing.
public class PersistentStoreRequest {
    /// The entity whose rows the request changes.
    public let entityName: String
    /// Who executes the request (set by `execute(_:)`), for persistent history.
    var origin = TransactionOrigin()

    init(entityName: String) {
        self.entityName = entityName
    }
}

/// What executing a `PersistentStoreRequest` returned — Core Data's `NSPersistentStoreResult`.
public class PersistentStoreResult {
    /// `true` (status only), the number of objects (count), or `[ManagedObjectID]`
    /// (object IDs), as the request's `resultType` asked.
    public let result: Any?

    init(result: Any?) {
        self.result = result
    }
}

/// The result of a `BatchInsertRequest`.
public final class BatchInsertResult: PersistentStoreResult {}
/// The result of a `BatchUpdateRequest`.
public final class BatchUpdateResult: PersistentStoreResult {}
/// The result of a `BatchDeleteRequest`.
public final class BatchDeleteResult: PersistentStoreResult {}

/// The keys of the dictionary `mergeChanges(fromRemoteContextSave:into:)` takes: Core
/// Data's `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and `NSDeletedObjectsKey`.
public let InsertedObjectsKey = "inserted"
/// Object IDs whose rows changed elsewhere; see `InsertedObjectsKey`.
public let UpdatedObjectsKey = "updated"
/// Object IDs whose rows were deleted elsewhere; see `InsertedObjectsKey`.
public let DeletedObjectsKey = "deleted"
