import Foundation

/// What a change of persistent history did to its object (`NSPersistentHistoryChangeType`).
public enum PersistentHistoryChangeType: Int, Sendable, CustomStringConvertible {
    case insert = 0, update = 1, delete = 2

    public var description: String {
        switch self {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }
}

/// One object's change in a transaction of persistent history (`NSPersistentHistoryChange`).
public struct PersistentHistoryChange: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: every stored property is immutable; `tombstone` holds values
    // decoded from the store, which are value types (numbers, strings, dates, data, UUIDs,
    // URLs, decimals) or a transformable attribute's decoded value, handed out as Core
    // Data hands them out.

    /// The change's number in its store's history.
    public let changeID: Int64
    /// The object inserted, updated or deleted.
    public let changedObjectID: ManagedObjectID
    public let changeType: PersistentHistoryChangeType
    /// For a delete: the values the object had for the attributes its model marks
    /// "Preserve After Deletion" (`preservesValueInHistoryOnDeletion`), by name; nil
    /// otherwise. A preserved attribute that had no value is absent.
    public let tombstone: [String: Any]?
    /// For an update: the properties it changed, in model order; nil otherwise. (Core
    /// Data gives a `Set<NSPropertyDescription>`; property descriptions are not hashable here.)
    public let updatedProperties: [PropertyDescription]?
    /// The number of the transaction the change belongs to.
    public let transactionNumber: Int64

    /// The entity of the changed object.
    public var changedEntity: EntityDescription { changedObjectID.entity }

    public var description: String {
        "PersistentHistoryChange(\(changeType) \(changedObjectID)\(updatedProperties.map { " " + $0.map(\.name).joined(separator: ",") } ?? ""))"
    }
}
