import Foundation

/// Builds one SELECT over an entity's table: joins for to-one key paths, a WHERE clause
/// whose values are all bound parameters, ORDER BY and the window.
struct SQLiteQuery {
    let schema: SQLiteSchema
    let entity: EntityDescription
    private(set) var joins: [String] = []
    private var aliasByPath: [String: (alias: String, entity: EntityDescription)] = [:]
    private(set) var parameters: [SQLValue] = []
    var conditions: [String] = []

    init(schema: SQLiteSchema, entity: EntityDescription, entityNumbers: Set<Int>) {
        self.schema = schema
        self.entity = entity
        let hierarchy = entity.rootEntity.selfAndDescendants.map { $0.slots.number }
        if Set(hierarchy) != entityNumbers {
            let numbers = entityNumbers.sorted().map(String.init).joined(separator: ", ")
            conditions.append(entityNumbers.count == 1 ? "t0.Z_ENT = \(numbers)" : "t0.Z_ENT IN (\(numbers))")
        }
    }

    /// Adds a bound parameter and returns its placeholder.
    mutating func bind(_ value: SQLValue) -> String {
        parameters.append(value)
        return "?"
    }

    /// The SQL column for a key path of attributes and to-one relationships, joining
    /// the tables it passes through. Returns the property the path ends at.
    mutating func column(forKeyPath keyPath: String) throws -> (sql: String, property: PropertyDescription) {
        var alias = "t0"
        var current = entity
        var walked = ""
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, name) in components.enumerated() {
            guard let slot = current.slots.slotByName[name] else {
                throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': entity '\(current.name)' has no property '\(name)'.", key: keyPath)
            }
            let property = current.slots.properties[slot]
            guard let column = columnName(slot: slot, of: current, isLast: index == components.count - 1, keyPath: keyPath) else {
                throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(current.name).\(name)' is not stored (transient or to-many), so it cannot be used in a store query here.", key: keyPath)
            }
            if index == components.count - 1 { return ("\(alias).\(column)", property) }
            let relationship = property as! RelationshipDescription
            walked += (walked.isEmpty ? "" : ".") + name
            if let known = aliasByPath[walked] {
                alias = known.alias
                current = known.entity
            } else {
                let destination = relationship.destinationEntity!
                let next = "t\(aliasByPath.count + 1)"
                joins.append("LEFT JOIN \(schema.table(for: destination).name) \(next) ON \(next).Z_PK = \(alias).\(column)")
                aliasByPath[walked] = (next, destination)
                alias = next
                current = destination
            }
        }
        throw CoreDataError(.invalidFetchRequest, "Empty key path.", key: keyPath)
    }

    private func columnName(slot: Int, of entity: EntityDescription, isLast: Bool, keyPath: String) -> String? {
        let mapping = schema.mapping(for: entity)
        if let relationship = entity.slots.relationships[slot], relationship.isToMany { return nil }
        if !isLast && entity.slots.relationships[slot] == nil { return nil }
        return mapping.valueColumn[slot].map { mapping.table.columns[$0].name }
    }

    /// The full statement: `SELECT <columns> FROM <table> t0 <joins> WHERE … ORDER BY … LIMIT … OFFSET …`.
    func sql(columns: String, orderBy: [String] = [], limit: Int = 0, offset: Int = 0) -> String {
        var sql = "SELECT \(columns) FROM \(schema.table(for: entity).name) t0"
        if !joins.isEmpty { sql += " " + joins.joined(separator: " ") }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !orderBy.isEmpty { sql += " ORDER BY " + orderBy.joined(separator: ", ") }
        if limit > 0 || offset > 0 { sql += " LIMIT \(limit > 0 ? limit : -1)" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return sql
    }
}
