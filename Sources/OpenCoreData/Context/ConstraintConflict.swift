import Foundation

/// Objects that a save would leave with the same values for a uniqueness constraint
/// (Core Data's `NSConstraintConflict`).
///
/// A save that violates a constraint, under the `.error` merge policy, writes nothing and
/// throws `.constraintViolation` with one record per clash in
/// `CoreDataError.constraintConflicts`; the context keeps its changes. A clash is between
/// the context's new or changed objects and a stored row, or between the context's
/// objects alone (two inserted duplicates): then `databaseObjectID` is nil.
///
/// Objects are named by ID so the record can travel with the error to any thread; in the
/// saving context, `context.object(with:)` gives the objects (inserted ones keep their
/// temporary IDs after a failed save).
public struct ConstraintConflict: Sendable, CustomStringConvertible {
    /// The property names of the violated constraint.
    public let constraint: [String]
    /// The shared values, by constrained property name.
    public let constraintValues: [String: CDValue]
    /// The stored row holding the values, when the clash is with one; nil when it is
    /// between the context's objects only.
    public let databaseObjectID: ManagedObjectID?
    /// The stored row's values, by property name (nil without a stored row).
    public let databaseSnapshot: [String: CDValue]?
    /// The context's new or changed objects holding the values, in the order they
    /// were first changed (inserted objects in insertion order).
    public let conflictingObjectIDs: [ManagedObjectID]
    /// For each conflicting object, the values it had when last read from the store (an
    /// empty dictionary for a new object).
    public let conflictingSnapshots: [[String: CDValue]]

    public init(
        constraint: [String], constraintValues: [String: CDValue], databaseObjectID: ManagedObjectID?,
        databaseSnapshot: [String: CDValue]?, conflictingObjectIDs: [ManagedObjectID], conflictingSnapshots: [[String: CDValue]]
    ) {
        self.constraint = constraint
        self.constraintValues = constraintValues
        self.databaseObjectID = databaseObjectID
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjectIDs = conflictingObjectIDs
        self.conflictingSnapshots = conflictingSnapshots
    }

    public var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
        let clash = databaseObjectID.map { "stored \($0)" } ?? "each other"
        return "(\(values)): \(conflictingObjectIDs.count) object(s) clash with \(clash)"
    }
}

extension CoreDataError {
    /// The `.constraintViolation` error for `conflicts`: nothing was written.
    static func constraintViolation(_ conflicts: [ConstraintConflict]) -> CoreDataError {
        let listed = conflicts.prefix(5).map(\.description).joined(separator: "; ")
        var error = CoreDataError(.constraintViolation,
            "The save would break \(conflicts.count) uniqueness constraint(s), so nothing was saved: \(listed)\(conflicts.count > 5 ? "; …" : ""). Change the values, or set a merge policy that resolves them.",
            objectID: conflicts.first?.conflictingObjectIDs.first, key: conflicts.first?.constraint.joined(separator: ","))
        error.constraintConflicts = conflicts
        return error
    }
}
