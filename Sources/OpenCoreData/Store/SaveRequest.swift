import Foundation

/// Everything one `save()` writes, handed to a store to apply in one transaction.
struct SaveRequest {
    /// One object's row: its values by slot (see `SlotValue`), the slots that changed,
    /// and the version the context last saw (`Z_OPT`).
    struct Row {
        let id: ManagedObjectID
        let values: SlotValues
        let changedSlots: SlotSet
        let version: Int64
    }

    /// An object to delete, with the version the context last saw: the delete applies
    /// only while the row still has that version (0: unknown, delete unconditionally).
    struct Deletion {
        let id: ManagedObjectID
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
    var deletes: [Deletion] = []
    var toManyChanges: [ToManyChange] = []
    /// Whether any saved value may refer to an object by ID (to-one values, to-many
    /// changes), so temporary IDs must be looked up when they become permanent.
    var refersToObjects = false
    /// Who saved: recorded in persistent history by stores that track it.
    var origin = TransactionOrigin()

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty && toManyChanges.isEmpty }
}

extension RelationshipDescription {
    /// Whether this to-many relationship is written by the side that owns it: join rows
    /// for many-to-many (or inverse-less) relationships, order columns for ordered ones.
    var isStoredAsToManyChange: Bool {
        isToMany && (isManyToMany || isOrdered)
    }
}

/// The permanent IDs a save gave to the objects it inserted, in the order of
/// `SaveRequest.inserts`. Looking one up by temporary ID needs a dictionary, built only
/// when the save refers to objects by ID at all (most bulk inserts do not).
struct PermanentIDs {
    let temporary: [ManagedObjectID]
    let permanent: [ManagedObjectID]
    private let lookup: [ManagedObjectID: ManagedObjectID]

    init(temporary: [ManagedObjectID], permanent: [ManagedObjectID], needsLookup: Bool) {
        self.temporary = temporary
        self.permanent = permanent
        lookup = needsLookup ? Dictionary(zip(temporary, permanent), uniquingKeysWith: { first, _ in first }) : [:]
    }

    /// The permanent ID for a temporary one (nil for an ID that is not a new object's).
    subscript(id: ManagedObjectID) -> ManagedObjectID? {
        id.isTemporaryID ? lookup[id] : nil
    }

    /// The temporary ID an object had, given its new permanent one (for error reports).
    func temporaryID(for id: ManagedObjectID) -> ManagedObjectID? {
        permanent.firstIndex(of: id).map { temporary[$0] }
    }

    var dictionary: [ManagedObjectID: ManagedObjectID] {
        Dictionary(zip(temporary, permanent), uniquingKeysWith: { first, _ in first })
    }
}

extension CoreDataError {
    /// The error as the context sees it: permanent IDs handed out inside a failed save
    /// are reported as the temporary IDs the objects still have.
    func withTemporaryIDs(_ ids: PermanentIDs) -> CoreDataError {
        guard let id = objectID, let temporary = ids.temporaryID(for: id) else { return self }
        var error = self
        error.objectID = temporary
        return error
    }
}
