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
        guard let link = SQLiteToManyLink(relationship, schema: schema) else { return [] }
        let columns = entityStatements(for: destination.rootEntity).selectColumns
        let order = link.orderColumn.map { ", \($0)" } ?? ""
        let sql = "SELECT \(columns), \(link.ownerColumn) FROM \(link.from) WHERE \(link.ownerColumn) IN (SELECT value FROM json_each(?)) ORDER BY \(link.ownerColumn)\(order), t0.Z_PK"
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
