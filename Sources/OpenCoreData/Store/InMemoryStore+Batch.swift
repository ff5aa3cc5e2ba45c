import Foundation

/// Batch updates and deletes over the rows in memory, with the SQLite store's semantics;
/// each works on copies and commits only when it fully succeeds.
extension InMemoryStore {
    func batchUpdate(_ plan: BatchUpdatePlan, origin: TransactionOrigin) throws -> [ManagedObjectID] {
        executedStatementCount += 1
        let matches = try matchingRows(plan.fetch)
        var newRows = rows
        for row in matches {
            var values = row.snapshot.values
            for assignment in plan.assignments {
                values[assignment.slot] = assignment.attribute.valueAsSQLiteStores(SlotValue(try BatchUpdatePlan.newValue(of: assignment, values: row.snapshot.values)))
            }
            newRows[row.id] = RowSnapshot(values: values, version: row.snapshot.version + 1)
        }
        do {
            try checkUniqueness(of: matches.map(\.id), in: newRows)
        } catch var error as CoreDataError {
            error.message = "A batch update of \(plan.fetch.entity.name) violates a uniqueness constraint (\(error.message))."
            throw error
        }
        replaceRows(newRows)
        return matches.map(\.id)
    }

    /// The in-memory store deletes by IDs (`batchDelete(_:)`), which is as cheap here.
    func deleteMatching(_ query: StoreFetch) throws -> Int? { nil }

    func batchDelete(_ ids: [ManagedObjectID], origin: TransactionOrigin) throws -> Int {
        executedStatementCount += 1
        let doomed = Set(ids)
        var newRows = rows
        var deleted = 0
        for id in doomed where newRows.removeValue(forKey: id) != nil { deleted += 1 }
        for (id, row) in newRows {
            var changed = row
            for slot in id.entity.slots.toOneSlots {
                if let target = row.values[slot].objectID, doomed.contains(target) { changed.values[slot] = .null }
            }
            if changed.values.indices.contains(where: { changed.values[$0].isNull != row.values[$0].isNull }) {
                changed.version += 1
                newRows[id] = changed
            }
        }
        replaceRows(newRows)
        forgetMembers(doomed)
        return deleted
    }
}
