import Foundation

extension PersistentStoreCoordinator {
    /// Loads what `relationshipKeyPathsForPrefetching` names, one store read per step of
    /// each key path: the rows a to-one step reaches go into the row cache; a to-many
    /// step's rows too, and the members of each owner's relationship are kept for the
    /// first object that reads them. Afterwards, walking those relationships and reading
    /// the related objects' attributes needs no store access.
    ///
    /// Rows fetched without values (`includesPropertyValues = false`) and not cached
    /// cannot tell where their to-one relationships lead; those are skipped. With several
    /// stores, each store's rows are followed in that store (relationships never cross
    /// stores).
    func prefetch(_ paths: [[RelationshipDescription]], from rows: [FetchedRow]) throws {
        guard !paths.isEmpty, let first = rows.first else { return }
        try lock.withLock {
            let groups = stores.count == 1 ? [(store: try store(for: first.id), items: rows)] : try grouped(rows, by: \.id)
            for (store, rows) in groups {
                try prefetch(paths, from: rows, in: store)
            }
        }
    }

    /// Follows `paths` from `rows`, all of `store`. Call under the lock.
    private func prefetch(_ paths: [[RelationshipDescription]], from rows: [FetchedRow], in store: PersistentStore) throws {
        for path in paths {
            var current = rows
            for relationship in path where !current.isEmpty {
                guard store.holdsDestination(of: relationship) else { break }
                current = relationship.isToMany
                    ? try prefetchToMany(relationship, of: current, in: store)
                    : try prefetchToOne(relationship, of: current, in: store)
            }
        }
    }

    /// The rows the to-one `relationship` of `rows` points at. Call under the lock.
    private func prefetchToOne(_ relationship: RelationshipDescription, of rows: [FetchedRow], in store: PersistentStore) throws -> [FetchedRow] {
        var seen = Set<ManagedObjectID>()
        var missing: [ManagedObjectID] = []
        var reached: [FetchedRow] = []
        for row in rows {
            guard let snapshot = row.snapshot ?? rowCache[row.id],
                  let slot = row.id.entity.slots.slotByName[relationship.name],
                  let target = snapshot.values[slot].objectID,
                  seen.insert(target).inserted else { continue }
            if let cached = rowCache[target] {
                reached.append(FetchedRow(id: target, snapshot: cached))
            } else {
                missing.append(target)
            }
        }
        guard !missing.isEmpty else { return reached }
        let fetched = try store.rows(for: missing)
        rowCache.insert(fetched)
        return reached + fetched
    }

    /// The rows the to-many `relationship` of `rows` holds; records each owner's members
    /// (empty ones too). Call under the lock.
    private func prefetchToMany(_ relationship: RelationshipDescription, of rows: [FetchedRow], in store: PersistentStore) throws -> [FetchedRow] {
        var members: [ManagedObjectID: [ManagedObjectID]] = [:]
        for row in rows { members[row.id] = [] }
        var seen = Set<ManagedObjectID>()
        var reached: [FetchedRow] = []
        for related in try store.relatedRows(of: Array(members.keys), relationship: relationship) {
            members[related.owner, default: []].append(related.row.id)
            if seen.insert(related.row.id).inserted { reached.append(related.row) }
        }
        rowCache.setRelated(members, relationship: relationship)
        rowCache.insert(reached)
        return reached
    }
}
