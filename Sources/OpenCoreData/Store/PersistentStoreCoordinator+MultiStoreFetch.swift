import Foundation

/// Fetches and counts over several stores, called under the coordinator's lock: each
/// store answers its share, then the rows are merged, sorted and windowed in memory.
extension PersistentStoreCoordinator {
    /// The rows `query` matches in `targets` (each store with its share of the query).
    ///
    /// Each store returns up to `fetchOffset + fetchLimit` rows, sorted; the merged rows
    /// are sorted again with `CDSortDescriptor.sort` (the same selectors, and nil first
    /// when ascending, as SQL sorts them), then `fetchOffset` and `fetchLimit` apply.
    /// Rows that tie under every sort descriptor keep store order (stores in the order
    /// they were added), then their order within each store.
    func fetchMerged(_ query: StoreFetch, from targets: [(store: PersistentStore, query: StoreFetch)]) throws -> [FetchedRow] {
        let sorts = !query.sortDescriptors.isEmpty
        var rows: [FetchedRow] = []
        for (store, share) in targets {
            var share = share
            share.limit = query.windowEnd ?? 0
            share.offset = 0
            // Sorting in memory reads the rows' values.
            share.includesValues = query.includesValues || sorts
            rows += try store.fetch(share)
        }
        if sorts {
            let reads = SortReads(coordinator: self)
            let sortable = rows.map { SortableRow(id: $0.id, snapshot: $0.snapshot, reads: reads) }
            rows = CDSortDescriptor.sort(sortable, by: query.sortDescriptors).map { FetchedRow(id: $0.id, snapshot: query.includesValues ? $0.snapshot : nil) }
            if let failure = reads.failure { throw failure }
        }
        return query.windowed(rows)
    }

    /// How many rows `query` matches in `targets`: the stores' counts summed, then
    /// `fetchOffset` and `fetchLimit` applied to the total.
    func countMerged(_ query: StoreFetch, from targets: [(store: PersistentStore, query: StoreFetch)]) throws -> Int {
        var total = 0
        for (store, share) in targets {
            var share = share
            share.limit = 0
            share.offset = 0
            total += try store.count(share)
        }
        return query.windowedCount(total)
    }
}

/// Reads of the rows a sort reaches through to-one relationships, as `snapshot(for:)`
/// reads them (the row cache only while no other connection has written). Sorting cannot
/// throw, so the first error is kept here for the fetch to throw once sorting is done; a
/// row that does not exist sorts as nil, as SQL's LEFT JOIN gives NULL.
private final class SortReads {
    let coordinator: PersistentStoreCoordinator
    var failure: (any Error)?

    init(coordinator: PersistentStoreCoordinator) { self.coordinator = coordinator }

    func snapshot(for id: ManagedObjectID) -> RowSnapshot? {
        guard failure == nil, let store = try? coordinator.store(for: id) else { return nil }
        do {
            return try coordinator.snapshot(for: id, in: store)
        } catch {
            failure = error
            return nil
        }
    }
}

/// A fetched row seen through key-value coding, to sort rows of several stores in memory.
/// It compares as its object ID, as a managed object does; a to-one key gives the related
/// row, read when a sort key path goes through it.
private struct SortableRow: KeyValueCoding, IdentifiedObject {
    let id: ManagedObjectID
    let snapshot: RowSnapshot?
    let reads: SortReads

    var objectID: ManagedObjectID { id }

    func value(forKey key: String) -> Any? {
        guard let snapshot, let slot = id.entity.slots.slot(forKey: key) else { return nil }
        guard let related = snapshot.values[slot].objectID else { return snapshot.values[slot].any }
        return SortableRow(id: related, snapshot: reads.snapshot(for: related), reads: reads)
    }
}
