import Foundation

/// Everything one `save()` writes, handed to a store to apply in one transaction.
struct SaveRequest {
    /// One object's row: its values by slot (attributes as Swift values, to-one
    /// relationships as `ManagedObjectID?`), the slots that changed, and the version
    /// the context last saw (`Z_OPT`).
    struct Row {
        let id: ManagedObjectID
        let values: ContiguousArray<Any?>
        let changedSlots: [Int]
        let version: Int64
    }

    /// The full new membership of a to-many relationship that is stored on its own
    /// (many-to-many join rows, or the order of an ordered relationship).
    struct ToManyChange {
        let owner: ManagedObjectID
        let relationship: RelationshipDescription
        let members: [ManagedObjectID]
    }

    var inserts: [Row] = []
    var updates: [Row] = []
    var deletes: [ManagedObjectID] = []
    var toManyChanges: [ToManyChange] = []

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && toManyChanges.isEmpty }
}

extension RelationshipDescription {
    /// Whether this to-many relationship is written by the side that owns it: join rows
    /// for many-to-many (or inverse-less) relationships, order columns for ordered ones.
    var isStoredAsToManyChange: Bool {
        isToMany && (isManyToMany || isOrdered)
    }
}

extension CoreDataError {
    /// The error as the context sees it: permanent IDs handed out inside a failed save
    /// are reported as the temporary IDs the objects still have.
    func withTemporaryIDs(_ map: [ManagedObjectID: ManagedObjectID]) -> CoreDataError {
        guard let id = objectID, let temporary = map.first(where: { $0.value == id })?.key else { return self }
        var error = self
        error.objectID = temporary
        return error
    }
}
