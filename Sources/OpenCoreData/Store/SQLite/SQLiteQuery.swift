import Foundation

/// Builds one SELECT over an entity's table: joins for to-one key paths, a WHERE clause
/// whose values are all bound parameters, ORDER BY and the window.
///
/// Predicates compile in `SQLiteQuery+Predicate.swift` (and its siblings); to-many key
/// paths and `SUBQUERY` become correlated subqueries, each with its own joins (a `Scope`).
struct SQLiteQuery {
    let schema: SQLiteSchema
    let entity: EntityDescription
    /// The identifier of the store queried: object IDs of other stores match none of its rows.
    let storeNumber: UInt32
    private(set) var parameters: [SQLValue] = []
    var conditions: [String] = []
    /// Open FROM clauses, innermost last: the main query's, then subqueries being built.
    var scopes: [Scope] = [Scope()]
    /// `SUBQUERY` iteration variables in scope → the row each one stands for.
    var variables: [String: SQLSource] = [:]
    private var aliasCount = 1

    /// Joins of one FROM clause, and the to-one paths they already reach.
    struct Scope {
        var joins: [String] = []
        var aliasByPath: [String: SQLSource] = [:]
    }

    init(schema: SQLiteSchema, entity: EntityDescription, entityNumbers: Set<Int>, storeNumber: UInt32) {
        self.schema = schema
        self.entity = entity
        self.storeNumber = storeNumber
        let hierarchy = entity.rootEntity.selfAndDescendants.map { $0.slots.number }
        if Set(hierarchy) != entityNumbers {
            let numbers = entityNumbers.sorted().map(String.init).joined(separator: ", ")
            conditions.append(entityNumbers.count == 1 ? "t0.Z_ENT = \(numbers)" : "t0.Z_ENT IN (\(numbers))")
        }
    }

    /// The row being fetched.
    var root: SQLSource { SQLSource(alias: "t0", entity: entity) }

    /// The main query's joins.
    var joins: [String] { scopes[0].joins }

    /// Adds a bound parameter and returns its numbered placeholder (`?3`), which the SQL
    /// may repeat.
    mutating func bind(_ value: SQLValue) -> String {
        parameters.append(value)
        return "?\(parameters.count)"
    }

    /// A table alias not used anywhere else in the statement.
    mutating func newAlias(_ prefix: String = "t") -> String {
        defer { aliasCount += 1 }
        return "\(prefix)\(aliasCount)"
    }

    /// The full statement and its parameters: `SELECT [DISTINCT] <columns> FROM <table> t0
    /// <joins> WHERE … GROUP BY … ORDER BY … LIMIT ? OFFSET ?`.
    ///
    /// A window (`limit` > 0 or `offset` > 0) is bound after the query's parameters, not
    /// written into the text, so one prepared statement serves every window of a query.
    func select(columns: String, distinct: Bool = false, groupBy: [String] = [], orderBy: [String] = [], limit: Int = 0, offset: Int = 0) -> (sql: String, parameters: [SQLValue]) {
        var sql = "SELECT \(distinct ? "DISTINCT " : "")\(columns) FROM \(schema.table(for: entity).name) t0"
        if !joins.isEmpty { sql += " " + joins.joined(separator: " ") }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !groupBy.isEmpty { sql += " GROUP BY " + groupBy.joined(separator: ", ") }
        if !orderBy.isEmpty { sql += " ORDER BY " + orderBy.joined(separator: ", ") }
        guard limit > 0 || offset > 0 else { return (sql, parameters) }
        sql += " LIMIT ?\(parameters.count + 1) OFFSET ?\(parameters.count + 2)"
        // LIMIT -1: no limit, only an offset.
        return (sql, parameters + [.integer(limit > 0 ? Int64(limit) : -1), .integer(Int64(offset))])
    }
}

/// A row a key path starts from: a table alias and the entity its rows are.
struct SQLSource {
    let alias: String
    let entity: EntityDescription
}
