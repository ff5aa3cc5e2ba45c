/// What a context keeps because it has child contexts, and what a child context keeps
/// about its parent (see `ManagedObjectContext.parent`). Empty, and untouched by every
/// hot path, for a context without either.
struct NestedContextState {
    // MARK: - As a parent

    /// Set when a child context first asks this context anything: from then on it keeps
    /// the versions and permanent IDs below.
    var hasChildren = false
    /// The version a child reads with each object (as a row's `Z_OPT`): how many events
    /// of this context changed the object since it had children (0: never). A child's
    /// save of an object whose version moved since the child read it is a conflict.
    /// Saving this context does not change versions: the values a child read stay the
    /// values this context holds.
    var versions: [ManagedObjectID: Int64] = [:]
    /// The version below (the store's `Z_OPT`, or a grandparent's version) of the row
    /// each object was last handed to a child with. When this context comes to hold the
    /// object at another version below (it read the row again, newer), the object counts
    /// as changed: a child that read the older row must not have its changes applied to
    /// the newer one, which this context's own save would then write unchecked.
    var bases: [ManagedObjectID: Int64] = [:]
    /// The permanent IDs this context's objects took in place of temporary ones (its
    /// saves, `obtainPermanentIDs`), for children that still call them by the temporary
    /// IDs they read or pushed (Core Data's child objects keep their temporary IDs).
    var permanentIDs: [ManagedObjectID: ManagedObjectID] = [:]

    // MARK: - As a child

    /// IDs of objects of this (child) context that stand for objects of the parent but
    /// still have temporary IDs: inserts pushed by a save, and the parent's own unsaved
    /// inserts read through it. The next fetch gives them their permanent IDs once the
    /// parent has saved them.
    var provisionalIDs: Set<ManagedObjectID> = []

    /// The version a child reads with the object `id` whose row below is at version
    /// `base` (nil for an object with none, a new one): a base other than the one last
    /// handed out counts as one more change.
    mutating func version(of id: ManagedObjectID, base: Int64?) -> Int64 {
        if let base, let previous = bases.updateValue(base, forKey: id), previous != base {
            versions[id, default: 0] += 1
        }
        return versions[id] ?? 0
    }

    /// This context saved the object `id`, now at version `base` below: the values a
    /// child read are still the ones this context holds, so no change is counted.
    mutating func didSave(_ id: ManagedObjectID, base: Int64) {
        if bases[id] != nil { bases[id] = base }
    }

    /// `id`, or the permanent ID its object took since.
    func resolve(_ id: ManagedObjectID) -> ManagedObjectID {
        id.isTemporaryID ? permanentIDs[id] ?? id : id
    }

    /// The object with temporary ID `temporary` now has `permanent`.
    mutating func didTake(_ permanent: ManagedObjectID, for temporary: ManagedObjectID) {
        permanentIDs[temporary] = permanent
        if let version = versions.removeValue(forKey: temporary) { versions[permanent] = version }
        if let base = bases.removeValue(forKey: temporary) { bases[permanent] = base }
    }

    /// Counts one more change of each object of `changes` (a closed event of the parent).
    mutating func noteChanges(_ changes: ChangeSet) {
        for group in [changes.inserted, changes.updated, changes.deleted, changes.refreshed, changes.invalidated] {
            for object in group { versions[object.objectID, default: 0] += 1 }
        }
        if changes.invalidatedAll {
            for id in Array(versions.keys) { versions[id]! += 1 }
        }
    }
}
