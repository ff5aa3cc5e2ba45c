import Foundation

/// The stored values of one row (see `SlotValue`): attributes unboxed, to-one
/// relationships as `.object(id)`, to-many slots `.null`; plus the row's version (`Z_OPT`).
struct RowSnapshot {
    var values: SlotValues
    var version: Int64
}

/// The objects of one loaded to-many relationship, by ID, in order.
struct RelatedObjects {
    private(set) var ordered: [ManagedObjectID] = []
    private(set) var members: Set<ManagedObjectID> = []

    init(_ ids: [ManagedObjectID] = []) {
        for id in ids where members.insert(id).inserted { ordered.append(id) }
    }

    var count: Int { ordered.count }
    func contains(_ id: ManagedObjectID) -> Bool { members.contains(id) }

    mutating func insert(_ id: ManagedObjectID, at index: Int? = nil) {
        guard members.insert(id).inserted else { return }
        if let index, index <= ordered.count { ordered.insert(id, at: index) } else { ordered.append(id) }
    }

    mutating func remove(_ id: ManagedObjectID) {
        guard members.remove(id) != nil else { return }
        ordered.removeAll { $0 == id }
    }

    mutating func move(_ id: ManagedObjectID, to index: Int) {
        guard members.contains(id) else { return }
        ordered.removeAll { $0 == id }
        ordered.insert(id, at: min(index, ordered.count))
    }

    /// Replaces IDs through `map` (temporary → permanent after a save).
    mutating func remap(_ map: PermanentIDs) {
        guard ordered.contains(where: { map[$0] != nil }) else { return }
        self = RelatedObjects(ordered.map { map[$0] ?? $0 })
    }
}

extension RelatedObjects {
    /// These members' edits since `base` (members added, removed, the order given)
    /// applied to `stored`: this order of the members still stored or added here, then the
    /// members others added.
    func replaying(since base: RelatedObjects, on stored: RelatedObjects) -> RelatedObjects {
        let kept = ordered.filter { stored.contains($0) || !base.contains($0) }
        let theirs = stored.ordered.filter { !contains($0) && !base.contains($0) }
        return RelatedObjects(kept + theirs)
    }
}
