import Foundation

/// Reading many rows by key in one statement: the batches of a batch-faulting array and
/// the steps of relationship prefetching. The keys travel as one JSON array parameter
/// (`json_each`), so the statement text stays the same whatever their number.
extension SQLiteStore {
    /// The rows of `ids` (all in one root entity's table), in no particular order; IDs
    /// without a row are left out. One statement.
    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] {
        guard let first = ids.first else { return [] }
        let root = first.entity.rootEntity
        let columns = entityStatements(for: root).selectColumns
        let sql = "SELECT \(columns) FROM \(schema.table(for: root).name) t0 WHERE t0.Z_PK IN (SELECT value FROM json_each(?))"
        let statement = try connection.cachedStatement(sql)
        statement.bind(.text(Self.jsonArray(ids.compactMap(\.primaryKey))), at: 1)
        defer { statement.reset() }
        var rows: [FetchedRow] = []
        rows.reserveCapacity(ids.count)
        try readRows(statement, includesValues: true) { row, _ in rows.append(row) }
        return rows
    }

    /// The destination rows of a to-many `relationship` for all of `owners` at once, each
    /// with its owner, in the relationship's order per owner. One statement.
    func relatedRows(of owners: [ManagedObjectID], relationship: RelationshipDescription) throws -> [RelatedRow] {
        guard !owners.isEmpty, let destination = relationship.destinationEntity else { return [] }
        let destinationTable = schema.table(for: destination).name
        let columns = entityStatements(for: destination.rootEntity).selectColumns
        let sql: String
        if let join = schema.joinTable(for: relationship) {
            let owns = join.owner === relationship
            let source = owns ? join.ownerColumn : join.memberColumn
            let target = owns ? join.memberColumn : join.ownerColumn
            let order = join.orderColumn.map { ", j.\($0)" } ?? ""
            sql = "SELECT \(columns), j.\(source) FROM \(join.name) j JOIN \(destinationTable) t0 ON t0.Z_PK = j.\(target) WHERE j.\(source) IN (SELECT value FROM json_each(?)) ORDER BY j.\(source)\(order), t0.Z_PK"
        } else if let inverse = relationship.inverseRelationship {
            let mapping = schema.mapping(for: inverse.entity!)
            let slot = inverse.entity!.slots.slotByName[inverse.name]!
            let column = mapping.table.columns[mapping.valueColumn[slot]!].name
            let order = schema.orderColumn(for: relationship).map { ", t0.\($0)" } ?? ""
            sql = "SELECT \(columns), t0.\(column) FROM \(destinationTable) t0 WHERE t0.\(column) IN (SELECT value FROM json_each(?)) ORDER BY t0.\(column)\(order), t0.Z_PK"
        } else {
            return []
        }
        var ownerByKey: [Int64: ManagedObjectID] = [:]
        for owner in owners { if let key = owner.primaryKey { ownerByKey[key] = owner } }
        let statement = try connection.cachedStatement(sql)
        statement.bind(.text(Self.jsonArray(Array(ownerByKey.keys))), at: 1)
        defer { statement.reset() }
        let ownerColumn = Int32(3 + schema.table(for: destination).columns.count)
        var rows: [RelatedRow] = []
        try readRows(statement, includesValues: true) { row, statement in
            if let owner = ownerByKey[statement.int64(ownerColumn)] { rows.append(RelatedRow(owner: owner, row: row)) }
        }
        return rows
    }

    static func jsonArray(_ keys: [Int64]) -> String {
        "[" + keys.map(String.init).joined(separator: ",") + "]"
    }
}
