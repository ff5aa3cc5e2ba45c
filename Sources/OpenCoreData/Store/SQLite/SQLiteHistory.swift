import Foundation

/// Persistent history in a SQLite store, in Core Data's tables: `ATRANSACTION` (one row
/// per save or batch request), `ACHANGE` (one row per inserted, updated or deleted object)
/// and `ATRANSACTIONSTRING` (authors, context names, bundle and process IDs, each stored
/// once and referred to by key from the `…TS` columns). See docs/persistent-history.md.
///
/// A store opened without `persistentHistoryTracking` has no `SQLiteHistory` at all, so
/// saves pay nothing; one whose file has history tables but was opened without the
/// option reads history but records none (the store is read-only then).
final class SQLiteHistory {
    /// `Z_ENT` of the history tables' rows, as Core Data numbers them.
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003

    /// The change types stored in `ACHANGE.ZCHANGETYPE` (`PersistentHistoryChangeType`).
    static let insert: Int64 = 0, update: Int64 = 1, delete: Int64 = 2

    let connection: SQLiteConnection
    let schema: SQLiteSchema
    /// Whether saves record transactions (false: history tables found, option off).
    let records: Bool
    /// Per entity number: the slots of attributes kept in tombstones, in slot order.
    let tombstoneSlots: [Int: [Int]]

    init(connection: SQLiteConnection, schema: SQLiteSchema, model: ManagedObjectModel, records: Bool) {
        self.connection = connection
        self.schema = schema
        self.records = records
        var slots: [Int: [Int]] = [:]
        for entity in model.entities {
            let preserved = entity.slots.storedSlots.filter { entity.slots.attributes[$0]?.preservesValueInHistoryOnDeletion == true }
            if !preserved.isEmpty { slots[entity.slots.number] = preserved }
        }
        tombstoneSlots = slots
    }

    // MARK: - Tables

    /// How many `ZTOMBSTONEn` columns `ACHANGE` needs: the most attributes any entity
    /// preserves (at least one, as Core Data creates).
    static func tombstoneColumnCount(for model: ManagedObjectModel) -> Int {
        let counts = model.entities.map { entity in
            entity.slots.storedSlots.count { entity.slots.attributes[$0]?.preservesValueInHistoryOnDeletion == true }
        }
        return max(1, counts.max() ?? 0)
    }

    /// Whether the file holds history tables (it was opened with tracking before).
    static func tablesExist(on connection: SQLiteConnection) throws -> Bool {
        try connection.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ATRANSACTION'") != nil
    }

    /// Creates the history tables and indexes when missing, and the tombstone columns a
    /// model that preserves more attributes needs. Call inside the opening transaction.
    static func createTables(on connection: SQLiteConnection, model: ManagedObjectModel) throws {
        let tombstones = tombstoneColumnCount(for: model)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL UNIQUE);
            CREATE TABLE IF NOT EXISTS ATRANSACTION (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, Z_OPT INTEGER, \
            ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, \
            ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB);
            CREATE INDEX IF NOT EXISTS ATRANSACTION_ZTIMESTAMP_INDEX ON ATRANSACTION (ZTIMESTAMP);
            CREATE TABLE IF NOT EXISTS ACHANGE (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, Z_OPT INTEGER, \
            ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0);
            CREATE INDEX IF NOT EXISTS ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
            """)
        let columns = try connection.prepare("SELECT count(*) FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'")
        let existing = try columns.step() ? Int(columns.int64(0)) : 0
        for index in existing..<max(existing, tombstones) {
            try connection.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(index)")
        }
    }

    // MARK: - Recording

    /// One object's change, as it is recorded.
    struct Change {
        let type: Int64
        let id: ManagedObjectID
        /// Updates: the changed slots, as Core Data's `ZCOLUMNS` bitmask (bit n: slot n).
        var columns: Data?
        /// Deletes: the values of the preserved attributes, in `tombstoneSlots` order.
        var tombstone: [SQLValue]?
    }

    /// Records one transaction holding `changes`, inside the caller's SQLite transaction;
    /// nothing when there are none (an empty save leaves no history).
    func record(_ changes: [Change], origin: TransactionOrigin) throws {
        guard records, !changes.isEmpty else { return }
        let insert = try connection.cachedStatement("""
            INSERT INTO ATRANSACTION (Z_ENT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, ?, ?, ?, ?)
            """)
        insert.bind([
            .integer(Self.transactionEntity), try stringKey(origin.author), try stringKey(TransactionOrigin.bundleID),
            try stringKey(origin.contextName), try stringKey(TransactionOrigin.processID),
            .real(Date().timeIntervalSinceReferenceDate),
        ])
        try insert.run()
        insert.reset()
        let transaction = connection.lastInsertedRowID
        let width = tombstoneColumnsInUse
        let placeholders = String(repeating: ", ?", count: width)
        let tombstoneColumns = (0..<width).map { ", ZTOMBSTONE\($0)" }.joined()
        let statement = try connection.cachedStatement(
            "INSERT INTO ACHANGE (Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstoneColumns)) VALUES (?, ?, ?, ?, ?, ?\(placeholders))")
        for change in changes {
            guard let key = change.id.primaryKey else { continue }
            statement.bind(Self.changeEntity, at: 1)
            statement.bind(change.type, at: 2)
            statement.bind(Int64(change.id.entity.slots.number), at: 3)
            statement.bind(key, at: 4)
            statement.bind(transaction, at: 5)
            statement.bind(change.columns.map { .blob($0) } ?? .null, at: 6)
            for index in 0..<width {
                let value = change.tombstone.flatMap { index < $0.count ? $0[index] : nil } ?? .null
                statement.bind(value, at: Int32(7 + index))
            }
            try statement.run()
            statement.reset()
        }
    }

    /// How many tombstone columns recording writes: as many as the model preserves.
    private var tombstoneColumnsInUse: Int { tombstoneSlots.values.map(\.count).max() ?? 0 }

    /// The key of `text` in `ATRANSACTIONSTRING`, added when new; NULL for nil.
    private func stringKey(_ text: String?) throws -> SQLValue {
        guard let text else { return .null }
        let select = try connection.cachedStatement("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
        select.bind(.text(text), at: 1)
        if try select.step() {
            let key = select.int64(0)
            select.reset()
            return .integer(key)
        }
        select.reset()
        let insert = try connection.cachedStatement("INSERT INTO ATRANSACTIONSTRING (Z_ENT, ZNAME) VALUES (?, ?)")
        insert.bind([.integer(Self.stringEntity), .text(text)])
        try insert.run()
        insert.reset()
        return .integer(connection.lastInsertedRowID)
    }

    /// Core Data's `ZCOLUMNS`: a bitmask of the changed slots, bit n of byte n / 8.
    static func columns(_ slots: some Sequence<Int>, slotCount: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: (slotCount + 7) / 8)
        for slot in slots where slot < slotCount { bytes[slot / 8] |= 1 << UInt8(slot % 8) }
        return Data(bytes)
    }

    /// The slots of a `ZCOLUMNS` bitmask.
    static func slots(in columns: Data) -> [Int] {
        var slots: [Int] = []
        for (index, byte) in columns.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << UInt8(bit)) != 0 { slots.append(index * 8 + bit) }
        }
        return slots
    }

    /// The preserved values of the rows of `ids` about to be deleted, read before the
    /// delete: one read per root table of entities that preserve any attribute.
    func tombstones(of ids: [ManagedObjectID]) throws -> [ManagedObjectID: [SQLValue]] {
        let preserving = ids.filter { tombstoneSlots[$0.entity.slots.number] != nil && $0.primaryKey != nil }
        guard records, !preserving.isEmpty else { return [:] }
        var found: [ManagedObjectID: [SQLValue]] = [:]
        for group in Dictionary(grouping: preserving, by: { ObjectIdentifier($0.entity) }).values {
            let entity = group[0].entity
            let mapping = schema.mapping(for: entity)
            let slots = tombstoneSlots[entity.slots.number]!
            let columns = slots.map { mapping.table.columns[mapping.valueColumn[$0]!].name }
            let statement = try connection.cachedStatement(
                "SELECT Z_PK, \(columns.joined(separator: ", ")) FROM \(mapping.table.name) WHERE Z_PK IN (SELECT value FROM json_each(?))")
            statement.bind(.text(SQLiteStore.jsonArray(group.compactMap(\.primaryKey))), at: 1)
            var byKey: [Int64: [SQLValue]] = [:]
            while try statement.step() {
                byKey[statement.int64(0)] = (1...columns.count).map { statement.value(at: Int32($0)) }
            }
            statement.reset()
            for id in group { if let key = id.primaryKey, let values = byKey[key] { found[id] = values } }
        }
        return found
    }

    /// The changes of a save that wrote `request`: inserts under their permanent IDs,
    /// updates with their changed stored slots and to-many relationships, and the deletes
    /// that removed a row, with their tombstones.
    func changes(of request: SaveRequest, permanent: [ManagedObjectID], removed: [ManagedObjectID],
                 tombstones: [ManagedObjectID: [SQLValue]]) -> [Change] {
        var changes: [Change] = []
        changes.reserveCapacity(permanent.count + request.updates.count + removed.count)
        for id in permanent { changes.append(Change(type: Self.insert, id: id)) }
        var toMany: [ManagedObjectID: [Int]] = [:]
        for change in request.toManyChanges {
            if let slot = change.owner.entity.slots.slotByName[change.relationship.name] { toMany[change.owner, default: []].append(slot) }
        }
        for row in request.updates {
            let slots = Array(row.changedSlots) + (toMany[row.id] ?? [])
            changes.append(Change(type: Self.update, id: row.id, columns: Self.columns(slots, slotCount: row.id.entity.slots.properties.count)))
        }
        for id in removed { changes.append(Change(type: Self.delete, id: id, tombstone: tombstones[id])) }
        return changes
    }
}
