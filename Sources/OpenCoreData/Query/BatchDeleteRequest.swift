import Foundation

/// Deletes every object a fetch request matches, or the objects with given IDs, in the
/// store, without loading them — Core Data's `NSBatchDeleteRequest`.
///
/// Relationships are kept consistent in the store: cascade rules delete the related
/// objects too (in the same request), a deny rule with related objects left fails the
/// request, and no foreign key or many-to-many row is left pointing at a deleted row
/// (nullify and no-action relationships are cleared). The result's object IDs and count
/// include the objects deleted by cascade.
public final class BatchDeleteRequest: PersistentStoreRequest {
    /// What `execute(_:)` returns in `result`.
    public enum ResultType: Sendable {
        /// `true` on success.
        case resultTypeStatusOnly
        /// The `[ManagedObjectID]` of the deleted objects.
        case resultTypeObjectIDs
        /// How many objects were deleted.
        case resultTypeCount
    }

    /// What `result` holds.
    public var resultType: ResultType = .resultTypeStatusOnly
    enum Target {
        /// Resolves the fetch request against the coordinator's model.
        case matching((ManagedObjectModel) throws -> StoreFetch)
        case objects([ManagedObjectID])
    }
    let target: Target

    /// Deletes what `fetchRequest` matches in the store (its predicate, sub-entities and
    /// window; unsaved changes are not considered).
    public init<T: FetchRequestResult>(fetchRequest: FetchRequest<T>) {
        target = .matching { model in try StoreFetch(fetchRequest, model: model) }
        super.init(entityName: fetchRequest.entity?.name ?? fetchRequest.entityName ?? "")
    }

    /// Deletes the objects with `objectIDs`, which must all be of one entity hierarchy.
    public init(objectIDs: [ManagedObjectID]) {
        target = .objects(objectIDs)
        super.init(entityName: objectIDs.first?.entity.name ?? "")
    }
}
