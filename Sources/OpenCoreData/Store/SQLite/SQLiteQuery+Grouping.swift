import Foundation

extension SQLiteQuery {
    /// `SELECT [DISTINCT] <columns> FROM … WHERE … GROUP BY … ORDER BY … LIMIT … OFFSET …`:
    /// the statement of a dictionary fetch.
    func groupedSQL(columns: [String], distinct: Bool, groupBy: [String], orderBy: [String], limit: Int, offset: Int) -> String {
        var sql = "SELECT \(distinct ? "DISTINCT " : "")\(columns.joined(separator: ", ")) FROM \(schema.table(for: entity).name) t0"
        if !joins.isEmpty { sql += " " + joins.joined(separator: " ") }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !groupBy.isEmpty { sql += " GROUP BY " + groupBy.joined(separator: ", ") }
        if !orderBy.isEmpty { sql += " ORDER BY " + orderBy.joined(separator: ", ") }
        if limit > 0 || offset > 0 { sql += " LIMIT \(limit > 0 ? limit : -1)" }
        if offset > 0 { sql += " OFFSET \(offset)" }
        return sql
    }
}
