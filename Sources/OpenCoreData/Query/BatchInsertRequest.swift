import Foundation

/// Inserts rows for many objects of one entity in one transaction, from dictionaries of
/// attribute values, without creating objects — Core Data's `NSBatchInsertRequest`.
///
/// Values are converted to each attribute's type as `setValue(_:forKey:)` would (an
/// `Int` for an Integer 16 attribute…); missing keys take the attribute's default.
/// Relationships cannot be set. Primary keys come from the store's `Z_PRIMARYKEY`
/// counters, and uniqueness constraints are enforced: a clash fails the whole request.
///
/// ```swift
/// let request = BatchInsertRequest(entityName: "Item", objects: [["title": "A"], ["title": "B"]])
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).result as! [ManagedObjectID]
/// ```
public final class BatchInsertRequest: PersistentStoreRequest {
    /// What `execute(_:)` returns in `result`.
    public enum ResultType: Sendable {
        /// `true` on success.
        case statusOnly
        /// The `[ManagedObjectID]` of the inserted objects, in order.
        case objectIDs
        /// How many objects were inserted.
        case count
    }

    /// The values of each object to insert, by attribute name.
    public var objectsToInsert: [[String: Any]]?
    /// Called for one object at a time with an empty dictionary to fill; returns `true`
    /// to stop (that dictionary is then not inserted). Used when `objectsToInsert` is nil.
    public var dictionaryHandler: ((inout [String: Any]) -> Bool)?
    /// What `result` holds.
    public var resultType: ResultType = .statusOnly

    /// Inserts `objects` as `entityName` objects.
    public init(entityName: String, objects: [[String: Any]]) {
        objectsToInsert = objects
        super.init(entityName: entityName)
    }

    /// Inserts the objects `handler` describes, until it returns `true`.
    public init(entityName: String, dictionaryHandler handler: @escaping (inout [String: Any]) -> Bool) {
        dictionaryHandler = handler
        super.init(entityName: entityName)
    }
}
