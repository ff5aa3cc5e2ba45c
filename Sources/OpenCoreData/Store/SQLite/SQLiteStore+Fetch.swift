import Foundation

/// Per entity: how to read its rows, built once.
struct EntityStatements {
    let decoder: SQLiteRowDecoder
    /// `t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<every column>`.
    let selectColumns: String
    /// One row by primary key (firing a fault).
    let selectByKey: String
}

extension SQLiteStore {
    func entityStatements(for entity: EntityDescription) -> EntityStatements {
        if let known = statements[ObjectIdentifier(entity)] { return known }
        let table = schema.table(for: entity)
        let columns = (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)).map { "t0." + $0 }.joined(separator: ", ")
        let made = EntityStatements(
            decoder: SQLiteRowDecoder(entity: entity, schema: schema), selectColumns: columns,
            selectByKey: "SELECT \(columns) FROM \(table.name) t0 WHERE t0.Z_PK = ? AND t0.Z_ENT = \(entity.slots.number)")
        statements[ObjectIdentifier(entity)] = made
        return made
    }

    // MARK: - Fetch and count

    func fetch(_ fetch: StoreFetch) throws -> [FetchedRow] {
        let (query, orderBy) = try makeOrderedQuery(fetch)
        let columns = fetch.includesValues ? entityStatements(for: fetch.entity).selectColumns : "t0.Z_PK, t0.Z_ENT"
        let select = query.select(columns: columns, orderBy: orderBy, limit: fetch.limit, offset: fetch.offset)
        let statement = try connection.cachedStatement(select.sql)
        statement.bind(select.parameters)
        defer { statement.reset() }
        var rows: [FetchedRow] = []
        try readRows(statement, includesValues: fetch.includesValues) { row, _ in rows.append(row) }
        return rows
    }

    /// Steps through `statement`, whose first columns are `Z_PK, Z_ENT` (then `Z_OPT` and
    /// the table's columns when `includesValues`), handing each row to `body` with the
    /// statement so that it can read extra columns.
    func readRows(_ statement: SQLiteStatement, includesValues: Bool, _ body: (FetchedRow, SQLiteStatement) throws -> Void) throws {
        var decoder: SQLiteRowDecoder?
        while try statement.step() {
            let entityNumber = statement.int64(1)
            if decoder == nil || decoder!.entity.slots.number != Int(entityNumber) {
                let entity = try self.objectID(entityNumber: entityNumber, primaryKey: 0).entity
                decoder = entityStatements(for: entity).decoder
            }
            let id = objectID(for: decoder!.entity, primaryKey: statement.int64(0))
            let snapshot = includesValues ? try decoder!.decode(statement, store: self) : nil
            try body(FetchedRow(id: id, snapshot: snapshot), statement)
        }
    }

    /// The primary keys (and entity numbers) of the matching rows, in fetch order.
    func fetchKeys(_ fetch: StoreFetch) throws -> StoredKeys {
        let (query, orderBy) = try makeOrderedQuery(fetch)
        let select = query.select(columns: "t0.Z_PK, t0.Z_ENT", orderBy: orderBy, limit: fetch.limit, offset: fetch.offset)
        let statement = try connection.cachedStatement(select.sql)
        statement.bind(select.parameters)
        defer { statement.reset() }
        var keys = StoredKeys(store: storeNumber)
        var checkedEntityNumber: Int64?
        while try statement.step() {
            let entityNumber = statement.int64(1)
            if entityNumber != checkedEntityNumber {
                // A number the model does not define is a corrupt store: a typed error here,
                // so that turning keys back into object IDs never meets it.
                _ = try objectID(entityNumber: entityNumber, primaryKey: 0)
                checkedEntityNumber = entityNumber
            }
            keys.append(primaryKey: statement.int64(0), entityNumber: Int32(truncatingIfNeeded: entityNumber))
        }
        return keys
    }

    func count(_ fetch: StoreFetch) throws -> Int {
        let query = try makeQuery(fetch)
        var select = query.select(columns: "count(*)")
        if fetch.limit > 0 || fetch.offset > 0 {
            let window = query.select(columns: "t0.Z_PK", limit: fetch.limit, offset: fetch.offset)
            select = ("SELECT count(*) FROM (" + window.sql + ")", window.parameters)
        }
        let statement = try connection.cachedStatement(select.sql)
        statement.bind(select.parameters)
        defer { statement.reset() }
        _ = try statement.step()
        return Int(statement.int64(0))
    }

    /// The fetch's query and its ORDER BY terms; ties keep store order, as the in-memory
    /// sort (stable over rows in key order) does.
    func makeOrderedQuery(_ fetch: StoreFetch) throws -> (query: SQLiteQuery, orderBy: [String]) {
        var query = try makeQuery(fetch)
        var orderBy: [String] = []
        for descriptor in fetch.sortDescriptors {
            orderBy.append(try query.orderTerm(for: descriptor))
        }
        if !orderBy.isEmpty { orderBy.append("t0.Z_PK") }
        return (query, orderBy)
    }

    func makeQuery(_ fetch: StoreFetch) throws -> SQLiteQuery {
        var query = SQLiteQuery(schema: schema, entity: fetch.entity, entityNumbers: fetch.entityNumbers, storeNumber: storeNumber)
        if let predicate = fetch.predicate {
            query.conditions.append(try query.compile(predicate))
        }
        let excluded = fetch.excludedIDs.compactMap { $0.store == storeNumber ? $0.primaryKey : nil }
        if !excluded.isEmpty {
            let keys = query.bind(.text(Self.jsonArray(excluded)))
            query.conditions.append("t0.Z_PK NOT IN (SELECT value FROM json_each(\(keys)))")
        }
        return query
    }

    // MARK: - Single rows and relationships

    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        guard let key = id.primaryKey else { return nil }
        let entityStatements = entityStatements(for: id.entity)
        let statement = try connection.cachedStatement(entityStatements.selectByKey)
        statement.bind(key, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return try entityStatements.decoder.decode(statement, store: self)
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        guard let key = id.primaryKey else { return [] }
        guard let link = SQLiteToManyLink(relationship, schema: schema) else { return [] }
        let order = link.orderColumn.map { " ORDER BY \($0)" } ?? ""
        let sql = "SELECT t0.Z_PK, t0.Z_ENT FROM \(link.from) WHERE \(link.ownerColumn) = ?\(order)"
        let statement = try connection.cachedStatement(sql)
        statement.bind(key, at: 1)
        defer { statement.reset() }
        var ids: [ManagedObjectID] = []
        while try statement.step() {
            ids.append(try objectID(entityNumber: statement.int64(1), primaryKey: statement.int64(0)))
        }
        return ids
    }
}
