/// What one event or one save of a context changed, by object ID: a `Sendable` value to
/// hand to other threads and tasks (the elements of `ManagedObjectContext.changes` and
/// `.saves`, and what merges between contexts carry).
///
/// IDs of objects inserted in an event and not yet saved are temporary; a save's IDs are
/// permanent.
public struct ObjectChanges: Sendable, Hashable {
    /// Objects that entered the context (inserted here, or registered by a merge).
    public var inserted: Set<ManagedObjectID> = []
    /// Objects whose properties changed (see `changedKeys`).
    public var updated: Set<ManagedObjectID> = []
    /// Objects that left the context (deleted here, or their rows deleted elsewhere).
    public var deleted: Set<ManagedObjectID> = []
    /// Objects reloaded from the store (`refresh(_:mergeChanges:)`, merges, rollback).
    public var refreshed: Set<ManagedObjectID> = []
    /// Objects whose rows turned out to be gone.
    public var invalidated: Set<ManagedObjectID> = []
    /// Set after `reset()`: every object of the context is invalid.
    public var invalidatedAll = false
    /// For each updated object, the names of the properties whose values changed.
    public var changedKeys: [ManagedObjectID: Set<String>] = [:]

    public init(inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = [],
                refreshed: Set<ManagedObjectID> = [], invalidated: Set<ManagedObjectID> = [], invalidatedAll: Bool = false,
                changedKeys: [ManagedObjectID: Set<String>] = [:]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidated = invalidated
        self.invalidatedAll = invalidatedAll
        self.changedKeys = changedKeys
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty && !invalidatedAll
    }
}

extension ObjectChanges {
    /// The IDs of an event's change set.
    init(_ changes: ChangeSet) {
        inserted = Set(changes.inserted.map(\.objectID))
        deleted = Set(changes.deleted.map(\.objectID))
        refreshed = Set(changes.refreshed.map(\.objectID))
        invalidated = Set(changes.invalidated.map(\.objectID))
        invalidatedAll = changes.invalidatedAll
        updated.reserveCapacity(changes.updated.count)
        for (index, object) in changes.updated.enumerated() {
            updated.insert(object.objectID)
            changedKeys[object.objectID] = changes.changedKeys(at: index)
        }
    }
}
