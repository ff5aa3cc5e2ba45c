import Foundation

/// Snapshots of recently read or saved rows, so that firing a fault again (in any
/// context of the coordinator) needs no SQL. Bounded: when it grows past `capacity`
/// it starts over, so walking a large store does not keep every row in memory.
struct RowCache {
    /// A cached row and when it was read or written (`DispatchTime` nanoseconds), for
    /// `ManagedObjectContext.stalenessInterval`.
    private struct Entry {
        var snapshot: RowSnapshot
        var time: UInt64
    }

    private var snapshots: [ManagedObjectID: Entry] = [:]
    /// Prefetched to-many contents, handed out once: the object that reads them keeps
    /// them, and any save or batch request drops them all, so they are never stale.
    private var related: [RelatedKey: [ManagedObjectID]] = [:]
    let capacity = 100_000

    struct RelatedKey: Hashable {
        let owner: ManagedObjectID
        let relationship: ObjectIdentifier
    }

    subscript(id: ManagedObjectID) -> RowSnapshot? {
        get { snapshots[id]?.snapshot }
        set {
            if newValue != nil && snapshots.count >= capacity { snapshots.removeAll(keepingCapacity: true) }
            snapshots[id] = newValue.map { Entry(snapshot: $0, time: Self.now) }
        }
    }

    mutating func insert(_ rows: [FetchedRow]) {
        if snapshots.count + rows.count > capacity { snapshots.removeAll(keepingCapacity: true) }
        snapshots.reserveCapacity(min(capacity, snapshots.count + rows.count))
        let time = Self.now
        for row in rows.prefix(capacity) {
            if let snapshot = row.snapshot { snapshots[row.id] = Entry(snapshot: snapshot, time: time) }
        }
    }

    /// Seconds since the cached row of `id` was read or written, nil when not cached.
    func age(of id: ManagedObjectID) -> TimeInterval? {
        guard let entry = snapshots[id] else { return nil }
        return TimeInterval(Self.now &- entry.time) / 1e9
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Forgets the rows of `ids` (rows a save found changed in the store), so the next
    /// read of them goes to the store.
    mutating func evict(_ ids: [ManagedObjectID]) {
        for id in ids { snapshots[id] = nil }
    }

    mutating func removeAll() {
        snapshots.removeAll()
        related.removeAll()
    }

    /// Records prefetched members of `relationship` for each owner.
    mutating func setRelated(_ members: [ManagedObjectID: [ManagedObjectID]], relationship: RelationshipDescription) {
        if related.count + members.count > capacity { related.removeAll(keepingCapacity: true) }
        for (owner, ids) in members { related[RelatedKey(owner: owner, relationship: ObjectIdentifier(relationship))] = ids }
    }

    /// The prefetched members of `relationship` for `owner`, removed from the cache.
    mutating func takeRelated(_ owner: ManagedObjectID, relationship: RelationshipDescription) -> [ManagedObjectID]? {
        guard !related.isEmpty else { return nil }
        return related.removeValue(forKey: RelatedKey(owner: owner, relationship: ObjectIdentifier(relationship)))
    }

    /// Records what a save wrote: new snapshots for updated rows (values as the store
    /// keeps them), none for deleted ones.
    /// Inserted rows are not cached: nobody has read them yet, and the saving context
    /// holds their values.
    mutating func didSave(_ request: SaveRequest, permanentIDs map: PermanentIDs) {
        related.removeAll()
        for deletion in request.deletes { snapshots[deletion.id] = nil }
        for row in request.updates { store(row, version: row.version + 1, map: map, refersToObjects: request.refersToObjects) }
    }

    private mutating func store(_ row: SaveRequest.Row, version: Int64, map: PermanentIDs, refersToObjects: Bool) {
        let slots = row.id.entity.slots
        var values = row.values
        for slot in slots.unstoredSlots where !values[slot].isNull { values[slot] = .null }
        // As the store reads them back (a decimal rounded to a double), so that a read
        // from the cache answers as a read from the store.
        values.roundAsSQLiteStores(slots)
        if refersToObjects {
            for slot in slots.toOneSlots {
                if let related = values[slot].objectID, let permanent = map[related] { values[slot] = .object(permanent) }
            }
        }
        self[row.id] = RowSnapshot(values: values, version: version)
    }
}
