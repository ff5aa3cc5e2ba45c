import Foundation

/// The store's `Z_METADATA` row: a binary property list with `NSStoreType`,
/// `NSStoreUUID`, `NSStoreModelVersionHashes` (one SHA-256 per entity, see
/// `EntityDescription.versionHash`) and `NSStoreModelVersionIdentifiers`.
struct SQLiteMetadata {
    let uuid: String
    let versionHashes: [String: Data]
    let versionIdentifiers: [String]

    static let currentVersion: Int64 = 1

    init(model: ManagedObjectModel) {
        uuid = UUID().uuidString
        versionHashes = model.entityVersionHashesByName
        versionIdentifiers = model.versionIdentifiers.sorted()
    }

    var dictionary: [String: any Sendable] {
        [
            "NSStoreType": "SQLite",
            "NSStoreUUID": uuid,
            "NSStoreModelVersionHashes": versionHashes,
            "NSStoreModelVersionIdentifiers": versionIdentifiers,
            "NSStoreModelVersionHashesVersion": 3,
            "NSPersistenceFrameworkVersion": "OpenCoreData 1",
        ]
    }

    func write(to connection: SQLiteConnection) throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: dictionary as [String: Any], format: .binary, options: 0)
        let insert = try connection.prepare("INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (?, ?, ?)")
        insert.bind([.integer(Self.currentVersion), .text(uuid), .blob(plist)])
        try insert.run()
    }

    /// Reads the metadata of the file at `path` through a read-only connection, so that
    /// nothing is written (not even a WAL checkpoint) while the file is being checked.
    static func read(path: String) throws -> SQLiteMetadata {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CoreDataError(.storeOpenFailed, "Cannot read the store file at \(path).")
        }
        let header = handle.readData(ofLength: 16)
        try? handle.close()
        guard header == Data("SQLite format 3\0".utf8) else {
            throw CoreDataError(.notAStore, "The file at \(path) is not a SQLite database; it was left untouched.")
        }
        let connection = try SQLiteConnection(path: path, readOnly: true, create: false)
        defer { connection.close() }
        let hasTable: SQLValue?
        do {
            hasTable = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'")
        } catch let error as CoreDataError {
            throw CoreDataError(error.code == .sqliteError ? .storeCorrupt : error.code, "The SQLite file at \(path) cannot be read: \(error.message)", sqliteResultCode: error.sqliteResultCode)
        }
        guard hasTable == .integer(1) else {
            throw CoreDataError(.notAStore, "The SQLite database at \(path) has no Z_METADATA table: it is not an OpenCoreData or Core Data store. It was left untouched.")
        }
        let statement = try connection.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1")
        guard try statement.step(), !statement.isNull(1) else {
            throw CoreDataError(.storeCorrupt, "The store at \(path) has an empty Z_METADATA table.")
        }
        let plistData = statement.data(1)
        guard let plist = try? PropertyListSerialization.propertyList(from: plistData, options: [], format: nil) as? [String: Any],
              let uuid = plist["NSStoreUUID"] as? String,
              let hashes = plist["NSStoreModelVersionHashes"] as? [String: Any] else {
            throw CoreDataError(.storeCorrupt, "The store metadata at \(path) is not a readable property list with NSStoreUUID and NSStoreModelVersionHashes.")
        }
        var versionHashes: [String: Data] = [:]
        for (name, value) in hashes {
            guard let data = value as? Data else {
                throw CoreDataError(.storeCorrupt, "The store metadata at \(path) has a malformed version hash for entity '\(name)'.")
            }
            versionHashes[name] = data
        }
        return SQLiteMetadata(uuid: uuid, versionHashes: versionHashes,
                              versionIdentifiers: plist["NSStoreModelVersionIdentifiers"] as? [String] ?? [])
    }

    private init(uuid: String, versionHashes: [String: Data], versionIdentifiers: [String]) {
        self.uuid = uuid
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
    }

    /// Throws `.incompatibleModel`, naming the entities that differ, when the store was
    /// written with another model.
    func checkCompatible(with model: ManagedObjectModel, path: String) throws {
        let expected = model.entityVersionHashesByName
        guard expected != versionHashes else { return }
        let names = Set(expected.keys).union(versionHashes.keys).filter { expected[$0] != versionHashes[$0] }.sorted()
        throw CoreDataError(.incompatibleModel,
            "The store at \(path) was written with a different model (entities that differ: \(names.joined(separator: ", "))). It was left untouched; migrate it or open it with its own model.")
    }
}
