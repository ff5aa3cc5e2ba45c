import Foundation

/// One object whose row changed in the store between the moment a context read it and
/// the moment the context saved it (Core Data's `NSMergeConflict`).
///
/// A save that meets conflicts writes nothing and throws `.mergeConflict` with one record
/// per object in `CoreDataError.conflicts`; the context keeps its changes. The record
/// carries what a merge policy needs to decide: the versions and three sets of values.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// The object in conflict.
    public let sourceObjectID: ManagedObjectID
    /// The row version (`Z_OPT`) the context read and based its changes on.
    public let oldVersion: Int64
    /// The row version now in the store; 0 when the row was deleted.
    public let newVersion: Int64
    /// The object's current values in the context, by property name (the changes it
    /// tried to save; to-one relationships as object IDs).
    public let objectSnapshot: [String: CDValue]
    /// The values the context last read from the store, by property name.
    public let cachedSnapshot: [String: CDValue]
    /// The values now in the store, by property name; nil when the row was deleted.
    public let persistedSnapshot: [String: CDValue]?

    public init(
        sourceObjectID: ManagedObjectID, oldVersion: Int64, newVersion: Int64,
        objectSnapshot: [String: CDValue], cachedSnapshot: [String: CDValue], persistedSnapshot: [String: CDValue]?
    ) {
        self.sourceObjectID = sourceObjectID
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
    }

    public var description: String {
        "\(sourceObjectID.entity.name) \(sourceObjectID): read version \(oldVersion), store has " + (newVersion == 0 ? "no row (deleted)" : "version \(newVersion)")
    }
}
