import CSQLite
import Foundation

/// The default store: a SQLite file in Core Data's layout (see `SQLiteSchema`), in WAL
/// mode unless `PersistentStoreOption.sqlitePragmas` says otherwise, written one
/// transaction per save, read with cached prepared statements and bound parameters only.
final class SQLiteStore: StoreBackend {
    let model: ManagedObjectModel
    let url: URL
    let schema: SQLiteSchema
    let connection: SQLiteConnection
    let identifier: String
    let metadata: [String: any Sendable]
    /// The store's number in the object IDs it hands out.
    let storeNumber: UInt32
    /// Per entity: the SELECT and INSERT statements, built once.
    var statements: [ObjectIdentifier: EntityStatements] = [:]
    /// Per entity: its prepared INSERT.
    var insertPlans: [ObjectIdentifier: InsertPlan] = [:]
    /// Prepared UPDATEs, per entity and set of changed columns.
    var updateStatements: [UpdateKey: SQLiteStatement] = [:]
    /// Per root entity: the DELETEs of a row and of its join-table rows.
    var deleteStatements: [ObjectIdentifier: [SQLiteStatement]] = [:]
    /// `PRAGMA data_version` when last read (see `hasExternalChanges()`).
    var lastDataVersion: Int64?
    /// The store's persistent history, when its file has one (nil: no history, no cost).
    let history: SQLiteHistory?

    /// Opens the store at `url` (see `open(path:model:schema:entities:options:)`),
    /// creating it when the file is missing or holds no tables. `entities` are those of
    /// the store's configuration: only their tables are created. `Z_PRIMARYKEY` and the
    /// metadata's version hashes cover the whole model, as in Core Data, so a store is
    /// checked against the model whatever its configuration.
    init(model: ManagedObjectModel, url: URL, entities: [EntityDescription], options: SQLiteStoreOptions) throws {
        self.model = model
        self.url = url
        schema = SQLiteSchema(model: model)
        let stored: SQLiteMetadata
        (connection, stored) = try Self.open(path: url.path, model: model, schema: schema, entities: entities, options: options)
        identifier = stored.uuid
        metadata = stored.dictionary
        storeNumber = StoreNumbers.number(for: identifier)
        history = try Self.history(on: connection, schema: schema, model: model, options: options)
        _ = try hasExternalChanges()
    }

    var executedStatementCount: Int { connection.executedStatementCount }
    var steppedRowCount: Int { connection.steppedRowCount }

    func close() {
        insertPlans.removeAll()
        updateStatements.removeAll()
        deleteStatements.removeAll()
        connection.close()
    }

    // MARK: - Object IDs

    func objectID(entityNumber: Int64, primaryKey: Int64) throws -> ManagedObjectID {
        guard let entity = schema.entitiesByNumber[Int(entityNumber)] else {
            throw CoreDataError(.storeCorrupt, "A row of the store has entity number \(entityNumber), which the model does not define.")
        }
        return ManagedObjectID(entity: entity, store: storeNumber, primaryKey: primaryKey)
    }

    func objectID(for entity: EntityDescription, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: entity, store: storeNumber, primaryKey: primaryKey)
    }

    /// Reserves `count` primary keys for `root`'s table; call inside a transaction.
    func allocatePrimaryKeys(root: EntityDescription, count: Int) throws -> Int64 {
        let select = try connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        select.bind(Int64(root.slots.number), at: 1)
        guard try select.step() else {
            throw CoreDataError(.storeCorrupt, "Z_PRIMARYKEY has no row for entity \(root.name).")
        }
        let first = select.int64(0) + 1
        select.reset()
        let update = try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        update.bind([.integer(first + Int64(count) - 1), .integer(Int64(root.slots.number))])
        try update.run()
        return first
    }

    func obtainPermanentIDs(for ids: [ManagedObjectID]) throws -> [ManagedObjectID: ManagedObjectID] {
        try connection.inTransaction {
            Dictionary(zip(ids, try assignPermanentIDs(ids)), uniquingKeysWith: { first, _ in first })
        }
    }

    /// Gives each temporary ID a primary key from its root table's counter (permanent IDs
    /// stay as they are); the result is aligned with `ids`.
    func assignPermanentIDs(_ ids: [ManagedObjectID]) throws -> [ManagedObjectID] {
        var result = ids
        let temporary = ids.indices.filter { ids[$0].isTemporaryID }
        guard let first = temporary.first else { return result }
        let firstRoot = ids[first].entity.rootEntity
        let groups = temporary.allSatisfy({ ids[$0].entity.rootEntity === firstRoot })
            ? [temporary]
            : Array(Dictionary(grouping: temporary, by: { ObjectIdentifier(ids[$0].entity.rootEntity) }).values)
        for positions in groups {
            var next = try allocatePrimaryKeys(root: ids[positions[0]].entity.rootEntity, count: positions.count)
            for index in positions {
                result[index] = objectID(for: ids[index].entity, primaryKey: next)
                next += 1
            }
        }
        return result
    }
}
