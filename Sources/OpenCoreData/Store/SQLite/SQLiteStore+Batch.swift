import Foundation

/// Batch updates and deletes in SQL, each in one transaction (batch inserts go through
/// `save(_:)`). Keys travel as one JSON array parameter.
extension SQLiteStore {
    // MARK: - Update

    /// Applies `plan` to the rows it matches; returns their IDs.
    func batchUpdate(_ plan: BatchUpdatePlan, origin: TransactionOrigin) throws -> [ManagedObjectID] {
        try connection.inTransaction {
            let keys = try fetchKeys(plan.fetch)
            var ids: [ManagedObjectID] = []
            ids.reserveCapacity(keys.count)
            for index in 0..<keys.count {
                ids.append(try objectID(entityNumber: Int64(keys.entityNumber(at: index)), primaryKey: keys.primaryKeys[index]))
            }
            guard !ids.isEmpty else { return [] }
            let mapping = schema.mapping(for: plan.fetch.entity)
            let keyList = Self.jsonArray(keys.primaryKeys)
            try checkComputedValues(of: plan, mapping: mapping, keys: keyList)
            var parameters: [SQLValue] = []
            var assignments = ["Z_OPT = Z_OPT + 1"]
            for assignment in plan.assignments {
                let column = mapping.table.columns[mapping.valueColumn[assignment.slot]!].name
                assignments.append("\(column) = \(try sql(for: assignment, mapping: mapping, parameters: &parameters))")
            }
            parameters.append(.text(keyList))
            let statement = try connection.prepare("UPDATE \(mapping.table.name) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN (SELECT value FROM json_each(?))")
            statement.bind(parameters)
            do {
                try statement.run()
            } catch var error as CoreDataError {
                if error.code == .constraintViolation {
                    error.message = "A batch update of \(plan.fetch.entity.name) violates a uniqueness constraint (\(error.message))."
                }
                throw error
            }
            if let history {
                let slots = plan.assignments.map(\.slot)
                try history.record(ids.map { id in
                    SQLiteHistory.Change(type: SQLiteHistory.update, id: id, columns: SQLiteHistory.columns(slots, slotCount: id.entity.slots.properties.count))
                }, origin: origin)
            }
            return ids
        }
    }

    private func sql(for assignment: BatchUpdatePlan.Assignment, mapping: SQLiteSchema.EntityMapping, parameters: inout [SQLValue]) throws -> String {
        if case .constant(let value) = assignment.value {
            parameters.append(try assignment.attribute.sqlValue(for: value))
            return "?"
        }
        let expression = try sql(for: assignment.value, mapping: mapping, parameters: &parameters)
        switch assignment.attribute.attributeType {
        case .integer16, .integer32, .integer64: return "CAST(\(expression) AS INTEGER)"
        case .double, .float: return "CAST(\(expression) AS REAL)"
        default: return expression
        }
    }

    /// Throws, before anything changes, when a computed or copied value would be NULL in a
    /// required attribute (division by zero, a NULL operand, NaN), or would not fit its
    /// integer attribute (SQLite's `CAST` would saturate or keep it, the decoder truncate).
    private func checkComputedValues(of plan: BatchUpdatePlan, mapping: SQLiteSchema.EntityMapping, keys: String) throws {
        for assignment in plan.assignments {
            if case .constant = assignment.value { continue }
            let isInteger: Bool
            switch assignment.attribute.attributeType {
            case .integer16, .integer32, .integer64: isInteger = true
            default: isInteger = false
            }
            guard isInteger || !assignment.attribute.isOptional else { continue }
            var parameters: [SQLValue] = []
            let expression = try sql(for: assignment.value, mapping: mapping, parameters: &parameters)
            let statement = try connection.prepare("SELECT count(*) - count(\(expression)), MAX(\(expression)), MIN(\(expression)) FROM \(mapping.table.name) WHERE Z_PK IN (SELECT value FROM json_each(?))")
            statement.bind(parameters + parameters + parameters + [.text(keys)])
            guard try statement.step() else { continue }
            if !assignment.attribute.isOptional, case .integer(let nulls) = statement.value(at: 0), nulls > 0 {
                throw BatchUpdatePlan.missingMandatoryError(for: assignment.attribute)
            }
            guard isInteger else { continue }
            for column: Int32 in [1, 2] {
                switch statement.value(at: column) {
                case .integer(let integer):
                    if assignment.attribute.exactInteger(integer) == nil {
                        throw BatchUpdatePlan.integerRangeError(for: assignment.attribute, tooLarge: integer > 0)
                    }
                case .real(let double) where !double.isNaN:
                    try BatchUpdatePlan.checkRange(of: double, for: assignment.attribute)
                default:
                    break
                }
            }
        }
    }

    private func sql(for value: BatchUpdatePlan.Value, mapping: SQLiteSchema.EntityMapping, parameters: inout [SQLValue]) throws -> String {
        switch value {
        case .constant(let constant):
            guard let constant else { return "NULL" }
            if let integer = StoredNumber.integer(constant) {
                parameters.append(.integer(integer))
            } else if let double = StoredNumber.double(constant) {
                parameters.append(.real(double))
            } else {
                throw CoreDataError(.invalidFetchRequest, "A batch update can only compute with numbers, not \(type(of: constant)).")
            }
            return "?"
        case .attribute(let slot, _):
            return mapping.table.columns[mapping.valueColumn[slot]!].name
        case .arithmetic(let op, let left, let right):
            let lhs = try sql(for: left, mapping: mapping, parameters: &parameters)
            let rhs = try sql(for: right, mapping: mapping, parameters: &parameters)
            switch op {
            case .add: return "(\(lhs) + \(rhs))"
            case .subtract: return "(\(lhs) - \(rhs))"
            case .multiply: return "(\(lhs) * \(rhs))"
            case .divide: return "(CAST(\(lhs) AS REAL) / \(rhs))"
            }
        }
    }

    // MARK: - Delete

    /// Deletes the rows of `ids` with their many-to-many rows, and clears every to-one
    /// column that points at them; returns how many rows were deleted. With persistent
    /// history, each deleted row is recorded as a delete (with its tombstone) and each row
    /// whose reference was cleared as an update.
    func batchDelete(_ ids: [ManagedObjectID], origin: TransactionOrigin) throws -> Int {
        try connection.inTransaction {
            var deleted = 0
            let tombstones = try history?.tombstones(of: ids) ?? [:]
            var cleared: [SQLiteHistory.Change] = []
            let byRoot = Dictionary(grouping: ids.compactMap { id in id.primaryKey.map { (ObjectIdentifier(id.entity.rootEntity), id.entity.rootEntity, $0) } }, by: \.0)
            for group in byRoot.values {
                let root = group[0].1
                let keys = Self.jsonArray(group.map(\.2))
                deleted += try run("DELETE FROM \(schema.table(for: root).name) WHERE Z_PK IN (SELECT value FROM json_each(?))", keys)
                for join in schema.allJoinTables {
                    for (column, side) in [(join.ownerColumn, join.owner.entity!), (join.memberColumn, join.owner.destinationEntity!)] where side.rootEntity === root {
                        if history != nil { cleared += try otherSides(of: join, losing: column, keys: keys, deleted: Set(ids)) }
                        _ = try run("DELETE FROM \(join.name) WHERE \(column) IN (SELECT value FROM json_each(?))", keys)
                    }
                }
                for entity in model.entities {
                    let mapping = schema.mapping(for: entity)
                    for case let relationship as RelationshipDescription in entity.properties
                    where !relationship.isToMany && relationship.destinationEntity?.rootEntity === root {
                        let slot = entity.slots.slotByName[relationship.name]!
                        let column = mapping.table.columns[mapping.valueColumn[slot]!].name
                        var clear = "\(column) = NULL"
                        if let entityColumn = mapping.entityColumn[slot] { clear += ", \(mapping.table.columns[entityColumn].name) = NULL" }
                        if history != nil { cleared += try referencingRows(mapping, column: column, slot: slot, keys: keys) }
                        _ = try run("UPDATE \(mapping.table.name) SET \(clear), Z_OPT = Z_OPT + 1 WHERE \(column) IN (SELECT value FROM json_each(?))", keys)
                    }
                }
            }
            if let history {
                let deletes = ids.map { SQLiteHistory.Change(type: SQLiteHistory.delete, id: $0, tombstone: tombstones[$0]) }
                try history.record(deletes + cleared, origin: origin)
            }
            return deleted
        }
    }

    /// The rows of `mapping`'s entity (and its sub-entities) whose to-one `column` points
    /// at one of `keys`, as updates of that relationship, for the history of a batch delete.
    private func referencingRows(_ mapping: SQLiteSchema.EntityMapping, column: String, slot: Int, keys: String) throws -> [SQLiteHistory.Change] {
        let select = try connection.cachedStatement("SELECT Z_PK, Z_ENT FROM \(mapping.table.name) WHERE \(column) IN (SELECT value FROM json_each(?))")
        select.bind(.text(keys), at: 1)
        defer { select.reset() }
        var rows: [SQLiteHistory.Change] = []
        while try select.step() {
            let id = try objectID(entityNumber: select.int64(1), primaryKey: select.int64(0))
            guard id.entity.isKindOf(entity: mapping.entity) else { continue }
            rows.append(SQLiteHistory.Change(type: SQLiteHistory.update, id: id, columns: SQLiteHistory.columns([slot], slotCount: id.entity.slots.properties.count)))
        }
        return rows
    }

    /// The rows on the other side of a many-to-many `join` that lose a member when the rows
    /// whose keys `column` holds are deleted, as updates of their side's relationship (none
    /// for an inverse-less relationship's members, which hold nothing), for the history of a
    /// batch delete. Rows the batch deletes too are left out.
    private func otherSides(of join: SQLiteSchema.JoinTable, losing column: String, keys: String, deleted: Set<ManagedObjectID>) throws -> [SQLiteHistory.Change] {
        let losesOwners = column == join.ownerColumn
        guard let relationship = losesOwners ? join.owner.inverseRelationship : join.owner,
              let entity = relationship.entity else { return [] }
        let otherColumn = losesOwners ? join.memberColumn : join.ownerColumn
        let table = schema.table(for: entity.rootEntity).name
        let select = try connection.cachedStatement("""
            SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK IN \
            (SELECT \(otherColumn) FROM \(join.name) WHERE \(column) IN (SELECT value FROM json_each(?)))
            """)
        select.bind(.text(keys), at: 1)
        defer { select.reset() }
        var rows: [SQLiteHistory.Change] = []
        while try select.step() {
            let id = try objectID(entityNumber: select.int64(1), primaryKey: select.int64(0))
            guard !deleted.contains(id), let slot = id.entity.slots.slotByName[relationship.name] else { continue }
            rows.append(SQLiteHistory.Change(type: SQLiteHistory.update, id: id, columns: SQLiteHistory.columns([slot], slotCount: id.entity.slots.properties.count)))
        }
        return rows
    }

    /// One `DELETE` of the rows `fetch` matches (a plain `DELETE FROM` — SQLite's truncate
    /// optimisation — when it matches the whole table); returns how many rows went.
    func deleteMatching(_ fetch: StoreFetch) throws -> Int? {
        let table = schema.table(for: fetch.entity).name
        let (query, orderBy) = try makeOrderedQuery(fetch)
        let wholeTable = query.conditions.isEmpty && fetch.limit == 0 && fetch.offset == 0
        let select = query.select(columns: "t0.Z_PK", orderBy: orderBy, limit: fetch.limit, offset: fetch.offset)
        let sql = wholeTable ? "DELETE FROM \(table)" : "DELETE FROM \(table) WHERE Z_PK IN (\(select.sql))"
        return try connection.inTransaction {
            let statement = try connection.cachedStatement(sql)
            statement.bind(wholeTable ? [] : select.parameters)
            defer { statement.reset() }
            try statement.run()
            return connection.changes
        }
    }

    /// Runs a statement with one JSON-array parameter; returns the rows it changed.
    private func run(_ sql: String, _ keys: String) throws -> Int {
        let statement = try connection.cachedStatement(sql)
        statement.bind(.text(keys), at: 1)
        defer { statement.reset() }
        try statement.run()
        return connection.changes
    }
}
