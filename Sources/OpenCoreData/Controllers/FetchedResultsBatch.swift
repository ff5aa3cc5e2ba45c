import Foundation

/// The changes of one event to a controller's content, with positions in the flat list
/// of objects and index paths: removed objects at their old places, inserted ones at
/// their new places (an object in both moved), updated ones at their old places.
struct FetchedResultsBatch<ResultType: ManagedObject> {
    struct Entry {
        let object: ResultType
        /// The position in all objects in order (old for removals and updates, new for
        /// insertions).
        let index: Int
        let indexPath: IndexPath
        /// The ID reported for it: the old one for a removal, the current one otherwise.
        let id: ManagedObjectID
        /// For an insertion that is a move: the old position.
        var oldIndex: Int? = nil
    }

    var removed: [Entry] = []
    var inserted: [Entry] = []
    var updated: [Entry] = []
    var deletedSections: [(index: Int, name: String)] = []
    var insertedSections: [(index: Int, name: String)] = []

    var isEmpty: Bool {
        removed.isEmpty && inserted.isEmpty && updated.isEmpty && deletedSections.isEmpty && insertedSections.isEmpty
    }

    /// The batch as a difference of the flat list of IDs: removals at old offsets with
    /// the IDs reported before, insertions at new offsets; a move associates the two
    /// when the ID stayed the same.
    var difference: CollectionDifference<ManagedObjectID> {
        if let associated = difference(associatingMoves: true) { return associated }
        // Removals and insertions at distinct offsets always make a difference.
        return difference(associatingMoves: false) ?? CollectionDifference<ManagedObjectID>([])!
    }

    private func difference(associatingMoves: Bool) -> CollectionDifference<ManagedObjectID>? {
        var newIndexByOld: [Int: (index: Int, id: ManagedObjectID)] = [:]
        for entry in inserted { if let old = entry.oldIndex { newIndexByOld[old] = (entry.index, entry.id) } }
        var changes: [CollectionDifference<ManagedObjectID>.Change] = []
        changes.reserveCapacity(removed.count + inserted.count)
        var oldIDs: [Int: ManagedObjectID] = [:]
        for entry in removed {
            oldIDs[entry.index] = entry.id
            let move = associatingMoves ? newIndexByOld[entry.index].flatMap { $0.id == entry.id ? $0.index : nil } : nil
            changes.append(.remove(offset: entry.index, element: entry.id, associatedWith: move))
        }
        for entry in inserted {
            let move = associatingMoves ? entry.oldIndex.flatMap { oldIDs[$0] == entry.id ? $0 : nil } : nil
            changes.append(.insert(offset: entry.index, element: entry.id, associatedWith: move))
        }
        return CollectionDifference(changes)
    }
}
