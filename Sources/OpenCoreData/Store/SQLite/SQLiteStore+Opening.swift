import CSQLite
import Foundation

extension SQLiteStore {
    /// Opens the store file at `path`, creating the store when the file is missing or is
    /// a SQLite database with no tables (a store whose creation never committed).
    ///
    /// Before anything is written the file is checked: its header (`SQLiteFileHeader`),
    /// its `Z_METADATA`, its model, and with `verifiesOnOpen` a `PRAGMA quick_check`.
    /// A refused file is left as it was; the one write allowed before the check is
    /// SQLite rolling back a hot journal, which restores the last committed state.
    static func open(path: String, model: ManagedObjectModel, schema: SQLiteSchema,
                     entities: [EntityDescription], options: SQLiteStoreOptions) throws -> (SQLiteConnection, SQLiteMetadata) {
        let contents = try SQLiteFileHeader.read(path: path)
        if case .database(let header) = contents { try header.validate(checkingSize: false) }
        if case .missing = contents {
            guard !options.readOnly else {
                throw CoreDataError(.storeOpenFailed, "There is no store at \(path), and a store opened read-only is never created.")
            }
            try createParentFolder(of: path)
        }
        // With a `-wal` present the check reads through a read-only connection, whose close
        // cannot checkpoint that WAL into the file (SQLite may add the `-shm` of a `-wal`
        // that has none); without one, a read-write connection (which can roll back a hot
        // journal) creates no side file that outlives it.
        let checksReadOnly = options.readOnly || SQLiteFileHeader.size(of: path + "-wal") != nil
        var connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, readOnly: checksReadOnly, create: contents.isMissing,
                                              busyTimeout: options.timeoutMilliseconds)
        } catch {
            throw openingError(error, path: path)
        }
        do {
            let found = try readMetadata(connection)
            try found?.checkCompatible(with: model, path: path)
            if options.verifiesOnOpen { try quickCheck(connection) }
            let historyReadOnlyReason = try readOnlyReasonForHistory(connection, options: options)
            if checksReadOnly != (options.readOnly || historyReadOnlyReason != nil) {
                connection.close()
                connection = try SQLiteConnection(path: path, readOnly: !checksReadOnly, create: false, busyTimeout: options.timeoutMilliseconds)
            }
            connection.readOnlyReason = historyReadOnlyReason
            // Opened read-only on request, because the file cannot be written, or because
            // it records history and tracking is off (saves then throw `.storeReadOnly`).
            // Such a connection can change neither the journal mode nor how writes sync.
            let readOnly = options.readOnly || historyReadOnlyReason != nil || connection.isReadOnly
            for pragma in options.pragmas where !(readOnly && SQLiteStoreOptions.defaultPragmas[pragma.name] != nil) {
                try retryingWhileLocked(timeout: options.timeout) { _ = try connection.scalar("PRAGMA \(pragma.name) = \(pragma.value)") }
            }
            if readOnly {
                guard let found else {
                    throw CoreDataError(.storeOpenFailed, "The file at \(path) holds no store yet, and a read-only store is never created.")
                }
                return (connection, found)
            }
            return (connection, try prepareForWriting(connection, found: found, model: model, schema: schema, entities: entities,
                                                      tracksHistory: options.tracksHistory))
        } catch {
            connection.close()
            throw openingError(error, path: path)
        }
    }

    /// The metadata (nil: no tables yet), read in one read transaction that also compares
    /// the file's size with its header: after SQLite rolled back any hot journal, and while
    /// no writer can change the file (a rollback-mode writer needs the lock this reader
    /// holds). A non-empty `-wal` may be checkpointed into the file at any moment by another
    /// process, growing it page by page, so then the size is not checked.
    private static func readMetadata(_ connection: SQLiteConnection) throws -> SQLiteMetadata? {
        let path = connection.path
        try connection.execute("BEGIN")
        let found = try SQLiteMetadata.read(from: connection)
        if case .database(let header) = try SQLiteFileHeader.read(path: path), (SQLiteFileHeader.size(of: path + "-wal") ?? 0) == 0 {
            try header.validate(checkingSize: true)
        }
        try connection.execute("COMMIT")
        return found
    }

    /// In one write transaction: creates the store when the file has no tables yet (unless
    /// another process created it since `found` was read), else adds the configuration's
    /// missing tables and indexes and heals the primary-key counters; with `tracksHistory`,
    /// creates the persistent history tables when missing. Returns the store's metadata.
    private static func prepareForWriting(_ connection: SQLiteConnection, found: SQLiteMetadata?, model: ManagedObjectModel,
                                          schema: SQLiteSchema, entities: [EntityDescription], tracksHistory: Bool) throws -> SQLiteMetadata {
        try connection.inTransaction {
            var found = found
            if found == nil {
                found = try SQLiteMetadata.read(from: connection)
                try found?.checkCompatible(with: model, path: connection.path)
            }
            if tracksHistory { try SQLiteHistory.createTables(on: connection, model: model) }
            guard let found else { return try createStore(on: connection, model: model, schema: schema, entities: entities) }
            // Another configuration of the model may have created the file: add what this
            // one lacks.
            for statement in schema.tableSQL(for: entities) + schema.indexSQL(model: model, entities: entities) {
                try connection.execute(statement)
            }
            try healPrimaryKeyCounters(on: connection, schema: schema, entities: entities)
            return found
        }
    }

    /// Runs `body` again while it fails with `.storeTimeout`, until `timeout` seconds have
    /// passed: `PRAGMA journal_mode = WAL` needs an exclusive lock and fails at once,
    /// without waiting in the busy handler, while another process is creating the store.
    private static func retryingWhileLocked(timeout: Double, _ body: () throws -> Void) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while true {
            do {
                return try body()
            } catch let error as CoreDataError where error.code == .storeTimeout && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    private static func createParentFolder(of path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CoreDataError(.storeOpenFailed, "Cannot create the folder of the store at \(path): \(error.localizedDescription)")
        }
    }

    private static func createStore(on connection: SQLiteConnection, model: ManagedObjectModel, schema: SQLiteSchema,
                                    entities: [EntityDescription]) throws -> SQLiteMetadata {
        for statement in schema.creationSQL(model: model, entities: entities) { try connection.execute(statement) }
        let insert = try connection.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
        for (number, entity) in model.layout.entitiesByNumber.sorted(by: { $0.key < $1.key }) {
            insert.reset()
            insert.bind([.integer(Int64(number)), .text(entity.name), .integer(Int64(entity.superentity?.slots.number ?? 0))])
            try insert.run()
        }
        let metadata = SQLiteMetadata(model: model)
        try metadata.write(to: connection)
        return metadata
    }

    /// Raises each root table's `Z_PRIMARYKEY.Z_MAX` to its largest `Z_PK` when it fell
    /// behind (a store edited by hand or restored from mismatched files), so that new
    /// objects never get the key of an existing row.
    private static func healPrimaryKeyCounters(on connection: SQLiteConnection, schema: SQLiteSchema, entities: [EntityDescription]) throws {
        let roots = Set(entities.map { ObjectIdentifier($0.rootEntity) })
        for table in schema.tables where roots.contains(ObjectIdentifier(table.root)) {
            try connection.execute("""
                UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM \(table.name)) \
                WHERE Z_ENT = \(table.root.slots.number) AND Z_MAX < (SELECT coalesce(max(Z_PK), 0) FROM \(table.name))
                """)
        }
    }

    /// `PRAGMA quick_check`: anything but "ok" throws `.storeCorrupt` with SQLite's first findings.
    private static func quickCheck(_ connection: SQLiteConnection) throws {
        let statement = try connection.prepare("PRAGMA quick_check(5)")
        var findings: [String] = []
        while try statement.step() { findings.append(statement.text(0)) }
        guard findings != ["ok"] else { return }
        throw CoreDataError(.storeCorrupt,
            "The store at \(connection.path) failed SQLite's quick_check: \(findings.joined(separator: "; ")). It was left untouched.")
    }

    /// An error met while opening, as the `CoreDataError` that names its cause: damage
    /// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) is `.storeCorrupt`; a read-only file, directory
    /// or mount is `.storeReadOnly`; a lock held past the timeout is `.storeTimeout`;
    /// anything else SQLite reports is `.storeOpenFailed` with its result code.
    static func openingError(_ error: any Error, path: String) -> CoreDataError {
        guard let error = error as? CoreDataError else {
            return CoreDataError(.storeOpenFailed, "Cannot open the store at \(path): \(error.localizedDescription)")
        }
        guard let code = error.sqliteResultCode, error.code != .storeTimeout else { return error }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        switch code & 0xff {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return CoreDataError(.storeCorrupt, "The store at \(path) is damaged: \(error.message). It was left untouched.", sqliteResultCode: code)
        case SQLITE_READONLY:
            return CoreDataError(.storeReadOnly, "The store at \(path) cannot be written: \(error.message).", sqliteResultCode: code)
        case SQLITE_CANTOPEN where access(folder, W_OK) != 0:
            return CoreDataError(.storeReadOnly,
                "The store at \(path) cannot be opened because its folder is read-only (SQLite needs to create its -wal and -shm files there): \(error.message).",
                sqliteResultCode: code)
        default:
            return CoreDataError(.storeOpenFailed, "Cannot open the store at \(path): \(error.message).", sqliteResultCode: code)
        }
    }
}

private extension SQLiteFileHeader.Contents {
    var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }
}
