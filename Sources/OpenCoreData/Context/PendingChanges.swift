/// What the next save writes, read once from the context's pending objects: inserted
/// objects in insertion order, updated and deleted ones, and new objects deleted again
/// (nothing to write; they leave the context with the save).
struct PendingChanges {
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    var discarded: [ManagedObject] = []

    init(_ context: ManagedObjectContext) {
        for object in context.pendingObjects where object.context === context {
            switch object.lifecycle {
            case .inserted: inserted.append(object)
            case .deleted: deleted.append(object)
            case .discarded: discarded.append(object)
            case .saved: if !object.changedSlots.isEmpty { updated.append(object) }
            }
        }
    }

    /// Only the objects `keep` accepts.
    func filter(_ keep: (ManagedObject) -> Bool) -> PendingChanges {
        var kept = self
        kept.inserted = inserted.filter(keep)
        kept.updated = updated.filter(keep)
        kept.deleted = deleted.filter(keep)
        kept.discarded = discarded.filter(keep)
        return kept
    }
}
