import Foundation

extension SQLiteStore {
    /// Applies a save in one `BEGIN IMMEDIATE` transaction; on any error it is rolled
    /// back and the file is as before. With persistent history, the save's transaction is
    /// recorded in the same SQLite transaction.
    ///
    /// Updates and deletes apply only to rows still at the version the context read
    /// (`WHERE Z_PK = ? AND Z_OPT = ?`); every row that is not is collected and the save
    /// throws `StoreConflicts` after rolling back, so a concurrent writer's committed
    /// values are never overwritten.
    func save(_ request: SaveRequest) throws -> PermanentIDs {
        try connection.inTransaction {
            var conflicts: [StoreVersionConflict] = []
            let temporary = request.inserts.map(\.id)
            let map = PermanentIDs(temporary: temporary, permanent: try assignPermanentIDs(temporary), needsLookup: request.refersToObjects)
            // Rows are deleted first, so that a new or updated row may take a unique value a
            // deleted one had; their join rows go last, after the to-many writes.
            var removed: [ManagedObjectID] = []
            let tombstones = try history?.tombstones(of: request.deletes.map(\.id)) ?? [:]
            for deletion in request.deletes where try deleteRow(deletion, conflicts: &conflicts) { removed.append(deletion.id) }
            do {
                try releaseConstrainedValues(of: request.updates)
                var plan: InsertPlan?
                for (row, id) in zip(request.inserts, map.permanent) {
                    if plan?.entity !== id.entity { plan = try insertPlan(for: id.entity) }
                    do {
                        try insert(row, as: id, plan!, map: map)
                    } catch let error as CoreDataError where error.code == .constraintViolation && !row.id.isTemporaryID {
                        // A row written again (the overwrite policy) that another writer
                        // wrote again first: a conflict with that row, not a clash.
                        plan!.statement.reset()
                        guard let current = try snapshot(for: id) else { throw error }
                        conflicts.append(StoreVersionConflict(id: id, expectedVersion: 0, current: current))
                    }
                }
                for row in request.updates { try update(row, map: map, conflicts: &conflicts) }
            } catch let error as CoreDataError {
                throw error.withTemporaryIDs(map)
            }
            let deleted = Set(request.deletes.map(\.id))
            let changes = request.toManyChanges.filter { !deleted.contains($0.owner) }
            // Unordered sides first, so that an ordered side's positions are written last.
            for change in changes.sorted(by: { !$0.relationship.isOrdered && $1.relationship.isOrdered }) {
                try write(change, map: map)
            }
            for id in removed { try deleteJoinRows(of: id) }
            if !conflicts.isEmpty { throw StoreConflicts(conflicts: conflicts) }
            if let history {
                try history.record(history.changes(of: request, permanent: map.permanent, removed: removed, tombstones: tombstones), origin: request.origin)
            }
            return map
        }
    }

    // MARK: - Rows

    private func insert(_ row: SaveRequest.Row, as id: ManagedObjectID, _ plan: InsertPlan, map: PermanentIDs) throws {
        let statement = plan.statement
        statement.bind(id.primaryKey!, at: 1)
        statement.bind(Int64(plan.slots.number), at: 2)
        statement.bind(1, at: 3)
        var index: Int32 = 4
        for slot in plan.slots.storedSlots {
            try bindValue(row.values[slot], slot: slot, of: plan.entity, mapping: plan.mapping, to: statement, at: &index, map: map, id: id)
        }
        try run(statement, for: id)
        statement.reset()
    }

    /// How to insert `entity`'s rows: its INSERT, prepared once, and its column mapping.
    private func insertPlan(for entity: EntityDescription) throws -> InsertPlan {
        if let known = insertPlans[ObjectIdentifier(entity)] { return known }
        let mapping = schema.mapping(for: entity)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for slot in entity.slots.storedSlots {
            columns.append(mapping.table.columns[mapping.valueColumn[slot]!].name)
            if let entityColumn = mapping.entityColumn[slot] { columns.append(mapping.table.columns[entityColumn].name) }
        }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let statement = try connection.prepare("INSERT INTO \(mapping.table.name) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        let plan = InsertPlan(entity: entity, slots: entity.slots, mapping: mapping, statement: statement)
        insertPlans[ObjectIdentifier(entity)] = plan
        return plan
    }

    /// Writes a row's changed columns and bumps its version, if the row is still at the
    /// version the context read; otherwise records a conflict (a row changed or deleted
    /// since, by another context, process or batch request).
    private func update(_ row: SaveRequest.Row, map: PermanentIDs, conflicts: inout [StoreVersionConflict]) throws {
        let entity = row.id.entity
        let mapping = schema.mapping(for: entity)
        let slots = row.changedSlots
        let statement = try updateStatement(for: entity, slots: slots, mapping: mapping)
        var index: Int32 = 1
        for slot in slots {
            try bindValue(row.values[slot], slot: slot, of: entity, mapping: mapping, to: statement, at: &index, map: map, id: row.id)
        }
        guard let key = row.id.primaryKey else { return }
        statement.bind(key, at: index)
        statement.bind(row.version, at: index + 1)
        try run(statement, for: row.id)
        statement.reset()
        if connection.changes == 0 { conflicts.append(try conflict(row.id, expected: row.version)) }
    }

    /// Clears the constrained columns (of a uniqueness constraint) that the save changes
    /// in rows it updates, where still at the version read, before any row is written:
    /// SQLite checks a unique index at each statement, so two rows swapping values, or a
    /// new row taking a value an updated row gives up, would otherwise clash with the
    /// old values. The save's result is checked, as the in-memory store checks it.
    private func releaseConstrainedValues(of updates: [SaveRequest.Row]) throws {
        for row in updates {
            guard let key = row.id.primaryKey else { continue }
            let entity = row.id.entity
            var names: Set<String> = []
            var current: EntityDescription? = entity
            while let constrained = current {
                for constraint in constrained.uniquenessConstraints { names.formUnion(constraint) }
                current = constrained.superentity
            }
            guard !names.isEmpty else { continue }
            let mapping = schema.mapping(for: entity)
            let columns = row.changedSlots.compactMap { slot -> String? in
                guard names.contains(entity.slots.properties[slot].name), let column = mapping.valueColumn[slot] else { return nil }
                return mapping.table.columns[column].name
            }
            guard !columns.isEmpty else { continue }
            let clear = try connection.cachedStatement(
                "UPDATE \(mapping.table.name) SET \(columns.map { "\($0) = NULL" }.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?")
            clear.bind(key, at: 1)
            clear.bind(row.version, at: 2)
            try run(clear, for: row.id)
            clear.reset()
        }
    }

    /// What the store holds now for a row a save expected at `version`.
    private func conflict(_ id: ManagedObjectID, expected version: Int64) throws -> StoreVersionConflict {
        StoreVersionConflict(id: id, expectedVersion: version, current: try snapshot(for: id))
    }

    /// The UPDATE of `slots` for `entity`'s rows, prepared once per set of columns.
    private func updateStatement(for entity: EntityDescription, slots: SlotSet, mapping: SQLiteSchema.EntityMapping) throws -> SQLiteStatement {
        let key = UpdateKey(entity: ObjectIdentifier(entity), slots: slots)
        if let known = updateStatements[key] { return known }
        var assignments = ["Z_OPT = Z_OPT + 1"]
        for slot in slots {
            assignments.append(mapping.table.columns[mapping.valueColumn[slot]!].name + " = ?")
            if let entityColumn = mapping.entityColumn[slot] { assignments.append(mapping.table.columns[entityColumn].name + " = ?") }
        }
        let statement = try connection.prepare("UPDATE \(mapping.table.name) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?")
        // Bounded as the connection's cache is (one per set of columns could grow without
        // end); statements still in use stay alive with their users.
        if updateStatements.count >= SQLiteConnection.statementCacheCapacity { updateStatements.removeAll() }
        updateStatements[key] = statement
        return statement
    }

    /// Deletes a row still at the version the context read (any version when that is
    /// unknown, 0); otherwise records a conflict. Whether the row was deleted.
    private func deleteRow(_ deletion: SaveRequest.Deletion, conflicts: inout [StoreVersionConflict]) throws -> Bool {
        let id = deletion.id
        guard let key = id.primaryKey else { return false }
        let statement = try deleteStatements(for: id.entity.rootEntity)[0]
        statement.bind(key, at: 1)
        statement.bind(deletion.version, at: 2)
        try run(statement, for: id)
        statement.reset()
        guard connection.changes == 0 else { return true }
        if deletion.version != 0 { conflicts.append(try conflict(id, expected: deletion.version)) }
        return false
    }

    /// Deletes the join-table rows of a deleted row.
    private func deleteJoinRows(of id: ManagedObjectID) throws {
        guard let key = id.primaryKey else { return }
        for statement in try deleteStatements(for: id.entity.rootEntity).dropFirst() {
            statement.bind(key, at: 1)
            try run(statement, for: id)
            statement.reset()
        }
    }

    /// Deleting a row of `root`'s table: the row itself (`?1` its key, `?2` the version
    /// expected, 0 for any), then its join-table rows.
    private func deleteStatements(for root: EntityDescription) throws -> [SQLiteStatement] {
        if let known = deleteStatements[ObjectIdentifier(root)] { return known }
        var statements = [try connection.prepare("DELETE FROM \(schema.table(for: root).name) WHERE Z_PK = ?1 AND (?2 = 0 OR Z_OPT = ?2)")]
        for join in schema.allJoinTables {
            let sides = [(join.ownerColumn, join.owner.entity!), (join.memberColumn, join.owner.destinationEntity!)]
            for (column, side) in sides where side.rootEntity === root {
                statements.append(try connection.prepare("DELETE FROM \(join.name) WHERE \(column) = ?"))
            }
        }
        deleteStatements[ObjectIdentifier(root)] = statements
        return statements
    }

    // MARK: - To-many relationships stored on their own

    private func write(_ change: SaveRequest.ToManyChange, map: PermanentIDs) throws {
        let owner = (map[change.owner] ?? change.owner).primaryKey!
        // A member still temporary is an object inserted and deleted before this save (a
        // relationship without an inverse keeps it): it has no row, so no membership.
        let members = change.members.compactMap { (map[$0] ?? $0).primaryKey }
        if let join = schema.joinTable(for: change.relationship) {
            let owns = join.owner === change.relationship
            let source = owns ? join.ownerColumn : join.memberColumn
            let target = owns ? join.memberColumn : join.ownerColumn
            let clear = try connection.cachedStatement("DELETE FROM \(join.name) WHERE \(source) = ?")
            clear.bind(owner, at: 1)
            try clear.run()
            let writesOrder = join.orderColumn != nil && change.relationship.isOrdered
            let columns = [source, target] + (writesOrder ? [join.orderColumn!] : [])
            let insert = try connection.cachedStatement("INSERT OR REPLACE INTO \(join.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
            for (position, member) in members.enumerated() {
                insert.reset()
                insert.bind(owner, at: 1)
                insert.bind(member, at: 2)
                if writesOrder { insert.bind(Int64(position + 1), at: 3) }
                try insert.run()
            }
        } else if let orderColumn = schema.orderColumn(for: change.relationship) {
            let table = schema.table(for: change.relationship.destinationEntity!).name
            let update = try connection.cachedStatement("UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?")
            for (position, member) in members.enumerated() {
                update.reset()
                update.bind(Int64(position + 1), at: 1)
                update.bind(member, at: 2)
                try update.run()
            }
        }
    }

    // MARK: - Values

    private func bindValue(
        _ value: SlotValue, slot: Int, of entity: EntityDescription, mapping: SQLiteSchema.EntityMapping,
        to statement: SQLiteStatement, at index: inout Int32, map: PermanentIDs, id: ManagedObjectID
    ) throws {
        if let attribute = mapping.slots.attributes[slot], let type = mapping.slots.attributeTypes[slot] {
            do {
                try bindAttribute(value, attribute, type, to: statement, at: index)
            } catch var error as CoreDataError {
                error.objectID = id
                error.key = attribute.name
                throw error
            }
            index += 1
            return
        }
        let related = value.objectID.map { map[$0] ?? $0 }
        if let related, let key = related.primaryKey {
            statement.bind(key, at: index)
        } else {
            statement.bind(.null, at: index)
        }
        index += 1
        if mapping.entityColumn[slot] != nil {
            statement.bind(related.map { .integer(Int64($0.entity.slots.number)) } ?? .null, at: index)
            index += 1
        }
    }

    /// Binds an attribute value straight from its slot for the common types (validation
    /// has checked that the value has the attribute's type), through the general
    /// conversion for the rest.
    private func bindAttribute(_ value: SlotValue, _ attribute: AttributeDescription, _ type: AttributeType, to statement: SQLiteStatement, at index: Int32) throws {
        switch (value, type) {
        case (.null, _): statement.bind(.null, at: index)
        case (.int64(let number), .integer64): statement.bind(number, at: index)
        case (.int32(let number), .integer32): statement.bind(Int64(number), at: index)
        case (.int16(let number), .integer16): statement.bind(Int64(number), at: index)
        case (.bool(let flag), .boolean): statement.bind(flag ? 1 : 0, at: index)
        case (.double(let number), .double): statement.bind(.real(number), at: index)
        case (.string(let text), .string): statement.bind(.text(text), at: index)
        case (.date(let date), .date): statement.bind(.real(date.timeIntervalSinceReferenceDate), at: index)
        case (.data(let data), .binaryData): statement.bind(.blob(data), at: index)
        default: statement.bind(try attribute.sqlValue(for: value.any), at: index)
        }
    }

    private func run(_ statement: SQLiteStatement, for id: ManagedObjectID) throws {
        do {
            try statement.run()
        } catch var error as CoreDataError {
            error.objectID = id
            if error.code == .constraintViolation {
                error.message = "Saving \(id.entity.name) \(id) violates a uniqueness constraint (\(error.message))."
            }
            throw error
        }
    }
}

/// How one entity's rows are inserted.
struct InsertPlan {
    let entity: EntityDescription
    let slots: EntitySlots
    let mapping: SQLiteSchema.EntityMapping
    let statement: SQLiteStatement
}

/// Identifies a prepared UPDATE: the entity and the slots it writes.
struct UpdateKey: Hashable {
    let entity: ObjectIdentifier
    let slots: SlotSet
}
