import Foundation

/// Changes attributes of every object of an entity that matches a predicate, in the
/// store, without loading objects — Core Data's `NSBatchUpdateRequest`. Each updated row's
/// version (`Z_OPT`) goes up, so contexts holding changes to those objects see a conflict.
///
/// A new value is a constant, or a `CDExpression`: a constant, a key path of the same
/// object (`amount`), or arithmetic over those with NSExpression's functions
/// `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:` (integers stay integers, a
/// division gives a double, division by zero or a nil operand gives nil).
///
/// ```swift
/// let request = BatchUpdateRequest(entityName: "Item")
/// request.predicate = try CDPredicate(format: "done == NO")
/// request.propertiesToUpdate = ["order": CDExpression(forFunction: "add:to:", arguments: [.keyPath("order"), .constant(.int64(1))])]
/// request.resultType = .updatedObjectIDsResultType
/// ```
public final class BatchUpdateRequest: PersistentStoreRequest {
    /// What `execute(_:)` returns in `result`.
    public enum ResultType: Sendable {
        /// `true` on success.
        case statusOnlyResultType
        /// The `[ManagedObjectID]` of the updated objects.
        case updatedObjectIDsResultType
        /// How many objects were updated.
        case updatedObjectsCountResultType
    }

    /// Which objects to update; nil updates all.
    public var predicate: CDPredicate?
    /// New values by attribute name: constants or `CDExpression`s.
    public var propertiesToUpdate: [String: Any]?
    /// Whether objects of sub-entities are updated too.
    public var includesSubentities = true
    /// What `result` holds.
    public var resultType: ResultType = .statusOnlyResultType

    /// A request to update `entityName` objects; set `propertiesToUpdate`.
    public override init(entityName: String) {
        super.init(entityName: entityName)
    }
}
