import Foundation

/// How a to-many relationship's destination rows are found in SQL: through its join table
/// (many-to-many) or its inverse's foreign-key column, with the column that names the owner
/// and the one that keeps an ordered relationship's order. The destination table's alias
/// is `t0`.
struct SQLiteToManyLink {
    /// `<destination> t0`, joined to the join table `j` for many-to-many.
    let from: String
    /// The column holding the owner's primary key.
    let ownerColumn: String
    /// The column holding each row's position, for ordered relationships.
    let orderColumn: String?

    init?(_ relationship: RelationshipDescription, schema: SQLiteSchema) {
        guard let destination = relationship.destinationEntity else { return nil }
        let destinationTable = schema.table(for: destination).name
        if let join = schema.joinTable(for: relationship) {
            let owns = join.owner === relationship
            let target = owns ? join.memberColumn : join.ownerColumn
            from = "\(join.name) j JOIN \(destinationTable) t0 ON t0.Z_PK = j.\(target)"
            ownerColumn = "j.\(owns ? join.ownerColumn : join.memberColumn)"
            orderColumn = join.orderColumn.map { "j.\($0)" }
        } else if let inverse = relationship.inverseRelationship, let inverseEntity = inverse.entity {
            let mapping = schema.mapping(for: inverseEntity)
            guard let slot = inverseEntity.slots.slotByName[inverse.name], let column = mapping.valueColumn[slot] else { return nil }
            from = "\(destinationTable) t0"
            ownerColumn = "t0.\(mapping.table.columns[column].name)"
            orderColumn = schema.orderColumn(for: relationship).map { "t0.\($0)" }
        } else {
            return nil
        }
    }
}
