import Foundation

/// A store that keeps rows in memory only, with the SQLite store's semantics: the same
/// snapshots, primary keys, relationship storage and atomic saves.
final class InMemoryStore: StoreBackend {
    let identifier = UUID().uuidString
    /// The store's number in the object IDs it hands out.
    let storeNumber: UInt32
    var metadata: [String: any Sendable] { ["NSStoreType": "InMemory", "NSStoreUUID": identifier] }
    let model: ManagedObjectModel
    private(set) var rows: [ManagedObjectID: RowSnapshot] = [:]
    /// Members of to-many relationships stored on their own (many-to-many, ordered), by owner.
    private var members: [MemberKey: [ManagedObjectID]] = [:]
    /// Positions of objects in ordered one-to-many relationships.
    private var positions: [MemberKey: Int] = [:]
    private var lastKey: [ObjectIdentifier: Int64] = [:]

    struct MemberKey: Hashable {
        let relationship: ObjectIdentifier
        let object: ManagedObjectID
    }

    init(model: ManagedObjectModel) {
        self.model = model
        storeNumber = StoreNumbers.number(for: identifier)
    }

    func close() {}

    /// Nobody else writes to an in-memory store.
    func hasExternalChanges() -> Bool { false }

    // MARK: - Reading

    /// Store reads so far, one per request (the in-memory counterpart of SQL statements).
    var executedStatementCount = 0
    /// Rows handed out by reads so far (the counterpart of rows a SQLite statement steps).
    var steppedRowCount = 0

    func fetch(_ query: StoreFetch) throws -> [FetchedRow] {
        executedStatementCount += 1
        let matches = try matchingRows(query)
        steppedRowCount += matches.count
        return matches.map { FetchedRow(id: $0.id, snapshot: query.includesValues ? $0.snapshot : nil) }
    }

    /// The rows a query selects, filtered, sorted and windowed. Without sort descriptors
    /// the predicate stops being evaluated once the window is full; a count (`sorted`
    /// false) does not sort.
    func matchingRows(_ query: StoreFetch, sorted: Bool = true) throws -> [StoredRow] {
        let excluded = Set(query.excludedIDs)
        let candidates = rows.filter { query.entityNumbers.contains($0.key.entity.slots.number) && !excluded.contains($0.key) }
            .map { StoredRow(store: self, id: $0.key, snapshot: $0.value) }
            .sorted { ($0.id.primaryKey ?? 0) < ($1.id.primaryKey ?? 0) }
        let sorts = sorted && !query.sortDescriptors.isEmpty
        let wanted = sorts ? Int.max : query.windowEnd ?? Int.max
        var matches: [StoredRow] = []
        for row in candidates where matches.count < wanted {
            if let predicate = query.predicate, try !predicate.evaluateThrowing(with: row) { continue }
            matches.append(row)
        }
        if sorts {
            matches = CDSortDescriptor.sort(matches, by: query.sortDescriptors)
        }
        return query.windowed(matches)
    }

    func count(_ query: StoreFetch) throws -> Int {
        executedStatementCount += 1
        steppedRowCount += 1
        return try matchingRows(query, sorted: false).count
    }

    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys {
        executedStatementCount += 1
        var keys = StoredKeys(store: storeNumber)
        let matches = try matchingRows(query)
        steppedRowCount += matches.count
        for row in matches {
            keys.append(primaryKey: row.id.primaryKey ?? 0, entityNumber: Int32(row.id.entity.slots.number))
        }
        return keys
    }

    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        executedStatementCount += 1
        if rows[id] != nil { steppedRowCount += 1 }
        return rows[id]
    }

    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] {
        executedStatementCount += 1
        let found = ids.compactMap { id in rows[id].map { FetchedRow(id: id, snapshot: $0) } }
        steppedRowCount += found.count
        return found
    }

    func relatedRows(of owners: [ManagedObjectID], relationship: RelationshipDescription) throws -> [RelatedRow] {
        executedStatementCount += 1
        let found = owners.flatMap { owner in
            storedRelatedIDs(of: owner, relationship: relationship).compactMap { id in
                rows[id].map { RelatedRow(owner: owner, row: FetchedRow(id: id, snapshot: $0)) }
            }
        }
        steppedRowCount += found.count
        return found
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        executedStatementCount += 1
        let found = storedRelatedIDs(of: id, relationship: relationship)
        steppedRowCount += found.count
        return found
    }

    /// The members of a to-many relationship, read without counting a store read (for
    /// `StoredRow`, which evaluates predicates over rows already read).
    fileprivate func storedRelatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) -> [ManagedObjectID] {
        if relationship.isManyToMany {
            return members[MemberKey(relationship: ObjectIdentifier(relationship), object: id)] ?? []
        }
        guard let inverse = relationship.inverseRelationship, let owner = inverse.entity else { return [] }
        var found = rows.compactMap { row -> ManagedObjectID? in
            guard row.key.entity.isKindOf(entity: owner),
                  let slot = row.key.entity.slots.slotByName[inverse.name],
                  row.value.values[slot].objectID == id else { return nil }
            return row.key
        }.sorted { ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0) }
        if relationship.isOrdered {
            let key = ObjectIdentifier(relationship)
            found.sort { (positions[MemberKey(relationship: key, object: $0)] ?? 0) < (positions[MemberKey(relationship: key, object: $1)] ?? 0) }
        }
        return found
    }

    // MARK: - Writing

    func save(_ request: SaveRequest) throws -> PermanentIDs {
        // Work on copies so that a failure leaves the store as it was.
        var newRows = rows
        var newMembers = members
        var newPositions = positions
        let savedKeys = lastKey
        do {
            let temporary = request.inserts.map(\.id)
            let assigned = try obtainPermanentIDs(for: temporary)
            let map = PermanentIDs(temporary: temporary, permanent: temporary.map { assigned[$0] ?? $0 }, needsLookup: true)
            func permanent(_ id: ManagedObjectID) -> ManagedObjectID { map[id] ?? id }
            var conflicts: [StoreVersionConflict] = []
            for row in request.inserts {
                // A row written again (the overwrite policy) that another writer wrote
                // again first: a conflict with that row, as in the SQLite store.
                if !row.id.isTemporaryID, let current = newRows[row.id] {
                    conflicts.append(StoreVersionConflict(id: row.id, expectedVersion: 0, current: current))
                    continue
                }
                newRows[permanent(row.id)] = try stored(row, version: 1, map: map)
            }
            for row in request.updates {
                // Only a row still at the version the context read is written (as the
                // SQLite store's `WHERE Z_OPT = ?`); others are conflicts.
                guard let current = newRows[row.id], current.version == row.version else {
                    conflicts.append(StoreVersionConflict(id: row.id, expectedVersion: row.version, current: newRows[row.id]))
                    continue
                }
                // Only the changed slots are written, as the SQLite store does: values
                // changed in the store since the fetch (a batch update) are kept.
                let changed = try stored(row, version: row.version + 1, map: map)
                var values = current.values
                for slot in row.changedSlots { values[slot] = changed.values[slot] }
                newRows[row.id] = RowSnapshot(values: values, version: changed.version)
            }
            // Rows are deleted before the uniqueness check, as the SQLite store deletes them
            // first (a new row may take a deleted one's unique value); memberships go last.
            var removed: [ManagedObjectID] = []
            for deletion in request.deletes {
                let id = deletion.id
                if deletion.version != 0, newRows[id]?.version != deletion.version {
                    conflicts.append(StoreVersionConflict(id: id, expectedVersion: deletion.version, current: newRows[id]))
                    continue
                }
                newRows[id] = nil
                removed.append(id)
            }
            do {
                try checkUniqueness(of: request.inserts.map { permanent($0.id) } + request.updates.map(\.id), in: newRows)
            } catch let error as CoreDataError {
                throw error.withTemporaryIDs(map)
            }
            for change in request.toManyChanges {
                let owner = permanent(change.owner)
                // As in the SQLite store, a member still temporary (inserted and deleted
                // before this save) has no row, so no membership.
                let list = change.members.map(permanent).filter { !$0.isTemporaryID }
                let key = ObjectIdentifier(change.relationship)
                if change.relationship.isManyToMany {
                    let old = newMembers[MemberKey(relationship: key, object: owner)] ?? []
                    newMembers[MemberKey(relationship: key, object: owner)] = list
                    if let inverse = change.relationship.inverseRelationship {
                        let inverseKey = ObjectIdentifier(inverse)
                        for removed in Set(old).subtracting(list) {
                            newMembers[MemberKey(relationship: inverseKey, object: removed)]?.removeAll { $0 == owner }
                        }
                        for added in list where !old.contains(added) {
                            let memberKey = MemberKey(relationship: inverseKey, object: added)
                            if !(newMembers[memberKey] ?? []).contains(owner) { newMembers[memberKey, default: []].append(owner) }
                        }
                    }
                } else {
                    for (position, member) in list.enumerated() { newPositions[MemberKey(relationship: key, object: member)] = position }
                }
            }
            if !removed.isEmpty { newMembers = Self.members(newMembers, without: Set(removed)) }
            if !conflicts.isEmpty { throw StoreConflicts(conflicts: conflicts) }
            rows = newRows
            members = newMembers
            positions = newPositions
            return map
        } catch {
            lastKey = savedKeys
            throw error
        }
    }

    /// Replaces every row (a batch request's result, once it has fully succeeded).
    func replaceRows(_ newRows: [ManagedObjectID: RowSnapshot]) {
        rows = newRows
    }

    /// Drops the many-to-many memberships and ordered positions of deleted objects.
    func forgetMembers(_ deleted: Set<ManagedObjectID>) {
        members = Self.members(members, without: deleted)
        positions = positions.filter { !deleted.contains($0.key.object) }
    }

    /// `members` without the memberships of `deleted` objects, on either side, in one pass.
    private static func members(_ members: [MemberKey: [ManagedObjectID]], without deleted: Set<ManagedObjectID>) -> [MemberKey: [ManagedObjectID]] {
        members.filter { !deleted.contains($0.key.object) }.mapValues { $0.filter { !deleted.contains($0) } }
    }

    func obtainPermanentIDs(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: ManagedObjectID] {
        var map: [ManagedObjectID: ManagedObjectID] = [:]
        for id in ids where id.isTemporaryID {
            let root = ObjectIdentifier(id.entity.rootEntity)
            let key = (lastKey[root] ?? 0) + 1
            lastKey[root] = key
            map[id] = ManagedObjectID(entity: id.entity, store: storeNumber, primaryKey: key)
        }
        return map
    }

    /// The values as the store keeps them: unstored slots cleared, new objects' IDs made
    /// permanent, transformable values passed through their transformer both ways (so
    /// that a value the SQLite store could not store fails here too), numbers and dates
    /// rounded as SQLite stores them (`valueAsSQLiteStores(_:)`).
    private func stored(_ row: SaveRequest.Row, version: Int64, map: PermanentIDs) throws -> RowSnapshot {
        let slots = row.id.entity.slots
        var values = row.values
        for slot in slots.unstoredSlots { values[slot] = .null }
        for slot in slots.toOneSlots {
            if let related = values[slot].objectID, let permanent = map[related] { values[slot] = .object(permanent) }
        }
        values.roundAsSQLiteStores(slots)
        for slot in slots.attributeSlots {
            guard let attribute = slots.attributes[slot] else { continue }
            guard attribute.attributeType == .transformable, !values[slot].isNull else { continue }
            do {
                values[slot] = SlotValue(try attribute.reverseTransformedValue(attribute.transformedData(values[slot].any)))
            } catch var error as CoreDataError {
                error.objectID = row.id
                error.key = attribute.name
                throw error
            }
        }
        return RowSnapshot(values: values, version: version)
    }

    /// Enforces the model's uniqueness constraints, as the SQLite store's unique indexes do.
    func checkUniqueness(of ids: [ManagedObjectID], in rows: [ManagedObjectID: RowSnapshot]) throws {
        var constrainedEntities: [ObjectIdentifier: EntityDescription] = [:]
        for id in ids {
            var entity: EntityDescription? = id.entity
            while let current = entity {
                if !current.uniquenessConstraints.isEmpty { constrainedEntities[ObjectIdentifier(current)] = current }
                entity = current.superentity
            }
        }
        let saved = Set(ids)
        for constrained in constrainedEntities.values {
            for constraint in constrained.uniquenessConstraints {
                var seen: [[AnyHashable]: ManagedObjectID] = [:]
                for (id, row) in rows where id.entity.isKindOf(entity: constrained) {
                    let values = constraint.map { name in id.entity.slots.slotByName[name].flatMap { row.values[$0].any } }
                    // As in a SQLite unique index, a nil value never clashes.
                    guard values.allSatisfy({ $0 != nil }) else { continue }
                    // By value, as SQLite compares them (a description loses a date's
                    // fraction of a second and a blob's bytes).
                    let key = values.map { value in (value as? AnyHashable) ?? AnyHashable(String(describing: value!)) }
                    if let other = seen[key], saved.contains(id) || saved.contains(other) {
                        let culprit = saved.contains(id) ? id : other
                        throw CoreDataError(.constraintViolation,
                            "Saving \(culprit.entity.name) \(culprit) violates the uniqueness constraint (\(constraint.joined(separator: ", "))) of \(constrained.name): another object has the same values.",
                            objectID: culprit, key: constraint.joined(separator: ","))
                    }
                    seen[key] = id
                }
            }
        }
    }
}

/// A stored row seen through key-value coding, for predicates and sorting in memory.
/// It compares as its object ID, as a managed object does.
struct StoredRow: KeyValueCoding, IdentifiedObject {
    let store: InMemoryStore
    let id: ManagedObjectID
    let snapshot: RowSnapshot

    var objectID: ManagedObjectID { id }

    func value(forKey key: String) -> Any? {
        guard let slot = id.entity.slots.slotByName[key] else { return nil }
        if let relationship = id.entity.slots.relationships[slot], relationship.isToMany {
            let related = store.storedRelatedIDs(of: id, relationship: relationship).compactMap { relatedID in
                store.rows[relatedID].map { StoredRow(store: store, id: relatedID, snapshot: $0) }
            }
            return EvaluatedCollection(related, isOrdered: relationship.isOrdered)
        }
        if let related = snapshot.values[slot].objectID {
            guard let row = store.rows[related] else { return nil }
            return StoredRow(store: store, id: related, snapshot: row)
        }
        return snapshot.values[slot].any
    }
}
