import Foundation

/// How a to-many relationship's destination rows are found in SQL: through its join table
/// (many-to-many) or its inverse's foreign-key column, with the column that names the owner
/// and the one that keeps an ordered relationship's order. Used to read a relationship's
/// members and, in predicates, to open the collection of a to-many key path.
struct SQLiteToManyLink {
    /// The first table, aliased: the join table (many-to-many) or the destination table.
    let first: String
    /// The JOIN from `first` to the destination table (many-to-many); empty otherwise.
    let joins: [String]
    /// The column holding the owner's primary key.
    let ownerColumn: String
    /// The column holding each row's position, for ordered relationships.
    let orderColumn: String?

    /// `first` with its `joins`: the FROM clause of the destination rows.
    var from: String { ([first] + joins).joined(separator: " ") }

    /// The link with the destination table aliased `alias` and a join table `joinAlias`;
    /// nil for a to-many relationship without a join table or an inverse.
    init?(_ relationship: RelationshipDescription, schema: SQLiteSchema, alias: String = "t0", joinAlias: String = "j") {
        guard let destination = relationship.destinationEntity else { return nil }
        let destinationTable = "\(schema.table(for: destination).name) \(alias)"
        if let join = schema.joinTable(for: relationship) {
            let owns = join.owner === relationship
            let target = owns ? join.memberColumn : join.ownerColumn
            first = "\(join.name) \(joinAlias)"
            joins = ["JOIN \(destinationTable) ON \(alias).Z_PK = \(joinAlias).\(target)"]
            ownerColumn = "\(joinAlias).\(owns ? join.ownerColumn : join.memberColumn)"
            orderColumn = join.orderColumn.map { "\(joinAlias).\($0)" }
        } else if let inverse = relationship.inverseRelationship, let inverseEntity = inverse.entity {
            let mapping = schema.mapping(for: inverseEntity)
            guard let slot = inverseEntity.slots.slotByName[inverse.name], let column = mapping.valueColumn[slot] else { return nil }
            first = destinationTable
            joins = []
            ownerColumn = "\(alias).\(mapping.table.columns[column].name)"
            orderColumn = schema.orderColumn(for: relationship).map { "\(alias).\($0)" }
        } else {
            return nil
        }
    }
}
