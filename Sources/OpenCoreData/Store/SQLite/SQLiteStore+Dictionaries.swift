import Foundation

/// Dictionary fetches in SQL: the columns and aggregates in the SELECT list, GROUP BY,
/// DISTINCT, ORDER BY and the window; the HAVING filter runs over the dictionaries with
/// the in-memory evaluator (see `DictionaryFetch`).
extension SQLiteStore {
    func fetchDictionaries(_ fetch: StoreFetch) throws -> [[String: Any]] {
        guard let dictionary = fetch.dictionary else { return [] }
        var query = try makeQuery(fetch)
        var selects: [String] = []
        var readers: [(SQLiteStatement) throws -> Any?] = []
        for (position, column) in dictionary.columns.enumerated() {
            readers.append(try reader(for: column, alias: "c\(position)", query: &query, selects: &selects))
        }
        let groupBy = try dictionary.groupBy.map { try query.column(forKeyPath: $0) }
        let names = Dictionary(dictionary.columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var orderBy: [String] = []
        for descriptor in dictionary.ordering(fetch.sortDescriptors) {
            if let index = names[descriptor.key], !dictionary.columns[index].isNamedKeyPath {
                orderBy.append("c\(index)" + (descriptor.ascending ? " ASC" : " DESC"))
            } else {
                orderBy.append(try query.orderTerm(for: descriptor))
            }
        }
        // Ungrouped rows tie in store order, as in memory.
        if !orderBy.isEmpty && !dictionary.isGrouped && !dictionary.distinct { orderBy.append("t0.Z_PK") }
        let windowInSQL = dictionary.having == nil
        let select = query.select(
            columns: selects.joined(separator: ", "), distinct: dictionary.distinct && !dictionary.isGrouped, groupBy: groupBy,
            orderBy: orderBy, limit: windowInSQL ? fetch.limit : 0, offset: windowInSQL ? fetch.offset : 0)
        let statement = try connection.cachedStatement(select.sql)
        statement.bind(select.parameters)
        defer { statement.reset() }
        var results: [[String: Any]] = []
        while try statement.step() {
            var result: [String: Any] = [:]
            for (column, read) in zip(dictionary.columns, readers) {
                if let value = column.finalValue(try read(statement)) { result[column.name] = value }
            }
            results.append(result)
        }
        if let having = dictionary.having {
            results = fetch.windowed(try results.filter { try having.evaluateThrowing(with: $0) })
        }
        return results
    }

    /// Adds the SELECT terms of `column` (aliased `c<n>`) and returns how to read its value.
    private func reader(for column: DictionaryFetch.Column, alias: String, query: inout SQLiteQuery, selects: inout [String]) throws -> (SQLiteStatement) throws -> Any? {
        let index = Int32(selects.count)
        switch column.source {
        case .objectID:
            selects.append("t0.Z_PK AS \(alias)")
            selects.append("t0.Z_ENT")
            return { statement in try self.objectID(entityNumber: statement.int64(index + 1), primaryKey: statement.int64(index)) }
        case .keyPath(let path):
            let sql = try query.column(forKeyPath: path)
            selects.append("\(sql) AS \(alias)")
            switch path.steps.last {
            case .attribute(let attribute, _):
                return { statement in try attribute.value(from: statement.value(at: index)) }
            case .toOne(let relationship, _):
                return try relationshipReader(relationship, columnSQL: sql, index: index, selects: &selects)
            default:
                throw CoreDataError.toManyKeyNotAllowed(path.keyPath, in: .dictionaryFetch)
            }
        case .aggregate(.sum, let path?) where (path.property as? AttributeDescription).map(Self.isInteger) == true:
            // SQLite's sum() fails when a running total overflows, even if the total fits, and
            // depends on the row order. The high and low 32 bits are summed apart (neither
            // sum can overflow) and added in Swift: the exact total, or the in-memory error.
            let argument = try query.column(forKeyPath: path)
            let (high, low) = ("sum(\(argument) >> 32)", "sum(\(argument) & 4294967295)")
            // For ORDER BY: exact while within 64 bits (SQLite turns an overflow into a REAL).
            selects.append("(\(high) * 4294967296 + \(low)) AS \(alias)")
            selects += [high, low]
            return { statement in
                guard case .integer(let high) = statement.value(at: index + 1), case .integer(let low) = statement.value(at: index + 2) else { return nil }
                return try AggregateFunctions.integerTotal(Int128(high) << 32 + Int128(low), in: "sum: of '\(path.keyPath)'")
            }
        case .aggregate(let aggregate, let path):
            let argument = try path.map { try query.column(forKeyPath: $0) } ?? "*"
            let function: String
            switch aggregate {
            case .sum: function = "sum"
            case .count: function = "count"
            case .min: function = "min"
            case .max: function = "max"
            case .average: function = "avg"
            }
            selects.append("\(function)(\(argument)) AS \(alias)")
            return { statement in
                let value = statement.value(at: index)
                switch (aggregate, value) {
                case (_, .null): return nil
                case (.count, _), (.sum, .integer): return statement.int64(index)
                case (.sum, _), (.average, _): return statement.double(index)
                case (.min, _), (.max, _):
                    if let attribute = path?.property as? AttributeDescription { return try attribute.value(from: value) }
                    return statement.int64(index)
                }
            }
        }
    }

    /// Whether the attribute's column holds integers only (integers and booleans).
    private static func isInteger(_ attribute: AttributeDescription) -> Bool {
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64, .boolean: return true
        default: return false
        }
    }

    /// Reads a to-one relationship column as an object ID, selecting the entity column
    /// too when the destination has sub-entities.
    private func relationshipReader(_ relationship: RelationshipDescription, columnSQL: String, index: Int32, selects: inout [String]) throws -> (SQLiteStatement) throws -> Any? {
        let owner = relationship.entity!
        let mapping = schema.mapping(for: owner)
        let slot = owner.slots.slotByName[relationship.name]!
        if let entityColumn = mapping.entityColumn[slot] {
            let tableAlias = columnSQL.split(separator: ".").first.map(String.init) ?? "t0"
            selects.append("\(tableAlias).\(mapping.table.columns[entityColumn].name)")
            return { statement in
                statement.isNull(index) ? nil : try self.objectID(entityNumber: statement.int64(index + 1), primaryKey: statement.int64(index))
            }
        }
        let destination = relationship.destinationEntity!
        return { statement in statement.isNull(index) ? nil : self.objectID(for: destination, primaryKey: statement.int64(index)) }
    }
}
