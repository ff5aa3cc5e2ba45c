import Foundation

/// A fetch that sees a context's unsaved changes, with its window kept in the store: the
/// store reads its matches with the predicate, sort and a limit in SQL, and the pending
/// objects are merged in memory around that window (one unsaved insert must not turn a
/// `fetchLimit = 1` fetch into a read of every row).
///
/// With `u` changed or deleted objects of the fetched entities and the window
/// `[offset, offset + limit)`, the store reads its first `offset + limit + u` matches.
/// Their rows of changed or deleted objects are dropped (at most `u`), so when the store
/// returns that many rows at least `offset + limit` clean ones remain, and the clean rows
/// read are always the first of all the store's clean matches, in order. The pending
/// objects — inserted and changed ones, checked against the predicate in memory — are
/// sorted and merged with the clean rows by the sort descriptors; the first
/// `offset + limit` of the merge need no more than the clean rows read. That needs the
/// store to order rows as memory orders objects (`sortsInStoreAsInMemory`); otherwise the
/// store reads every match and the clean rows are sorted in memory first.
///
/// Without sort descriptors a changed object that still matches keeps its place among the
/// store's rows and the other pending matches follow; the window lies within the rows
/// read whenever they are as many as asked for. Objects that tie under every sort
/// descriptor order by primary key, new objects last in the order they were created, as
/// a store orders its rows.
///
/// Counts need no rows: the store counts its clean matches (leaving out the rows of
/// changed and deleted objects) and the pending matches are added.
struct PendingFetch {
    let query: StoreFetch
    /// Changed objects of the fetched entities (whose stored rows may no longer match).
    private let updated: Set<ManagedObject>
    /// Deleted objects of the fetched entities.
    private let deleted: [ManagedObject]
    /// Inserted objects of the fetched entities, not deleted.
    private let inserted: [ManagedObject]

    /// The unsaved changes of `context` to `query`'s entities; nil when there are none.
    init?(_ query: StoreFetch, in context: ManagedObjectContext) {
        let fetched = { (object: ManagedObject) in query.entityNumbers.contains(object.entity.slots.number) }
        let changes = PendingChanges(context)
        updated = Set(changes.updated.filter(fetched))
        deleted = changes.deleted.filter(fetched)
        inserted = changes.inserted.filter(fetched)
        guard !updated.isEmpty || !deleted.isEmpty || !inserted.isEmpty else { return nil }
        self.query = query
    }

    /// What the store reads: the predicate and sort, from the first match, up to the
    /// window's end plus one row per changed or deleted object (all matches when there
    /// is no limit, or when memory must sort). Rows come with values to merge by.
    var storeQuery: StoreFetch {
        var storeQuery = query
        storeQuery.offset = 0
        storeQuery.limit = 0
        if let end = query.windowEnd, query.sortsInStoreAsInMemory {
            let (limit, overflow) = end.addingReportingOverflow(updated.count + deleted.count)
            storeQuery.limit = overflow ? Int.max : limit
        }
        if !query.sortDescriptors.isEmpty { storeQuery.includesValues = true }
        return storeQuery
    }

    /// The window of `stored` (the objects of the rows `storeQuery` read, in store order)
    /// merged with the pending objects.
    func merge(_ stored: [ManagedObject]) throws -> [ManagedObject] {
        let sorts = !query.sortDescriptors.isEmpty
        var clean: [ManagedObject] = []
        clean.reserveCapacity(stored.count)
        var placed = Set<ObjectIdentifier>()
        for object in stored where !object.isPendingDelete {
            guard updated.contains(object) else {
                clean.append(object)
                continue
            }
            // Sorted, a changed object is merged with the pending ones; unsorted, it keeps
            // its place when it still matches.
            guard !sorts else { continue }
            placed.insert(ObjectIdentifier(object))
            if try matches(object) { clean.append(object) }
        }
        let pending = try matchingPending().filter { !placed.contains(ObjectIdentifier($0)) }
        guard sorts else { return query.windowed(clean + pending) }
        if !query.sortsInStoreAsInMemory { clean = CDSortDescriptor.sort(clean, by: query.sortDescriptors) }
        return query.windowed(merged(clean, pending, upTo: query.windowEnd ?? Int.max))
    }

    /// How many objects match with the pending changes, windowed: the store's count of
    /// its clean matches plus the pending matches.
    func count(in parent: any ParentObjectStore) throws -> Int {
        var clean = query
        clean.limit = 0
        clean.offset = 0
        // Also those a child context counts itself (see `ManagedObjectContext.count(_:)`);
        // stores skip temporary IDs, a parent context has its unsaved inserts.
        clean.excludedIDs = query.excludedIDs + (Array(updated) + deleted).map(\.objectID)
        let excluded = Set(query.excludedIDs)
        let pending = try matchingPending()
        return query.windowedCount(try parent.count(clean) + (excluded.isEmpty ? pending.count : pending.count { !excluded.contains($0.objectID) }))
    }

    // MARK: - Merging

    /// Inserted and changed objects that match the predicate, sorted (ties in
    /// `precedesInTie` order).
    private func matchingPending() throws -> [ManagedObject] {
        let matching = try (inserted + updated).filter(matches)
            .sorted { Self.precedesInTie($0.objectID, $1.objectID) }
        return CDSortDescriptor.sort(matching, by: query.sortDescriptors)
    }

    private func matches(_ object: ManagedObject) throws -> Bool {
        guard let predicate = query.predicate else { return true }
        return try predicate.evaluateThrowing(with: object)
    }

    /// The first `end` objects of `clean` and `pending` (each sorted) in sort order.
    private func merged(_ clean: [ManagedObject], _ pending: [ManagedObject], upTo end: Int) -> [ManagedObject] {
        let descriptors = query.sortDescriptors
        let sortKeys = { (object: ManagedObject) in descriptors.map { $0.sortValue(of: object) } }
        let pendingKeys = pending.map(sortKeys)
        var result: [ManagedObject] = []
        result.reserveCapacity(min(end, clean.count + pending.count))
        var (nextClean, nextPending) = (0, 0)
        var cleanKeys = clean.first.map(sortKeys)
        while result.count < end, let keys = cleanKeys, nextPending < pending.count {
            if precedes(pendingKeys[nextPending], pending[nextPending].objectID, keys, clean[nextClean].objectID) {
                result.append(pending[nextPending])
                nextPending += 1
            } else {
                result.append(clean[nextClean])
                nextClean += 1
                cleanKeys = nextClean < clean.count ? sortKeys(clean[nextClean]) : nil
            }
        }
        let rest = nextPending < pending.count ? pending[nextPending...] : clean[nextClean...]
        result += rest.prefix(end - result.count)
        return result
    }

    /// Whether the object with `leftKeys` sorts before the one with `rightKeys`.
    private func precedes(_ leftKeys: [CDSortDescriptor.SortValue], _ left: ManagedObjectID, _ rightKeys: [CDSortDescriptor.SortValue], _ right: ManagedObjectID) -> Bool {
        Self.precedes(leftKeys, left, rightKeys, right, by: query.sortDescriptors)
    }

    /// Whether the object with `leftKeys` (its values for `descriptors`) sorts before the
    /// one with `rightKeys`, ties broken as the store breaks them (`precedesInTie`). The
    /// one ordering of pending fetches and fetched results controllers.
    static func precedes(_ leftKeys: [CDSortDescriptor.SortValue], _ left: ManagedObjectID, _ rightKeys: [CDSortDescriptor.SortValue], _ right: ManagedObjectID,
                         by descriptors: [CDSortDescriptor]) -> Bool {
        for (position, descriptor) in descriptors.enumerated() {
            switch descriptor.compareValues(leftKeys[position], rightKeys[position]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return precedesInTie(left, right)
    }

    /// The order of objects equal under every sort descriptor: saved ones by primary key
    /// (as the store's `ORDER BY …, Z_PK`), then new ones in the order they were created.
    static func precedesInTie(_ left: ManagedObjectID, _ right: ManagedObjectID) -> Bool {
        if left.isTemporaryID != right.isTemporaryID { return !left.isTemporaryID }
        return left.key < right.key
    }
}

extension StoreFetch {
    /// Whether the stores order rows by the sort descriptors exactly as
    /// `CDSortDescriptor.sort` orders objects in memory, so that rows read in store order
    /// can be merged with objects sorted in memory.
    ///
    /// Each key must be a stored attribute of the fetched entity, of a type SQLite orders
    /// as memory does: integers, booleans, floating point numbers, strings (through the
    /// same collations) and dates. A key path through a relationship orders stored rows
    /// by the related rows' stored values, while memory reads the related objects'
    /// unsaved ones; a relationship orders by primary key in SQL, by entity in memory;
    /// decimals are kept as TEXT when a REAL cannot hold them, which SQL orders after
    /// every number; binary data, UUIDs, URIs and transformables are left to memory too.
    var sortsInStoreAsInMemory: Bool {
        sortDescriptors.allSatisfy { descriptor in
            guard let slot = entity.slots.slot(forKey: descriptor.key), let attribute = entity.slots.attributes[slot],
                  !attribute.isTransient else { return false }
            switch attribute.attributeType {
            case .integer16, .integer32, .integer64, .boolean, .double, .float, .string, .date: return true
            default: return false
            }
        }
    }
}
