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

    /// Reads the metadata of the database `connection` has open; nil when it has no
    /// tables at all (a zero-length file, or a store whose creation never committed).
    /// SQLite errors are thrown as they are; the caller maps them (`SQLiteStore+Opening`).
    static func read(from connection: SQLiteConnection) throws -> SQLiteMetadata? {
        let path = connection.path
        let tables = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        guard tables != .integer(0) else { return nil }
        guard try connection.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'") != nil else {
            throw CoreDataError(.notAStore, "The SQLite database at \(path) has no Z_METADATA table: it is not an OpenCoreData or Core Data store. It was left untouched.")
        }
        let statement = try connection.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1")
        guard try statement.step(), !statement.isNull(1) else {
            throw CoreDataError(.storeCorrupt, "The store at \(path) has an empty Z_METADATA table.")
        }
        let plist: StoredPlist
        do {
            plist = try PropertyListDecoder().decode(StoredPlist.self, from: statement.data(1))
        } catch {
            throw CoreDataError(.storeCorrupt, "The store metadata at \(path) is not a readable property list with NSStoreUUID and NSStoreModelVersionHashes (one data value per entity).")
        }
        return SQLiteMetadata(uuid: plist.uuid, versionHashes: plist.versionHashes,
                              versionIdentifiers: plist.versionIdentifiers ?? [])
    }

    /// The keys `read(from:)` needs, decoded without bridging (other keys are ignored).
    private struct StoredPlist: Decodable {
        let uuid: String
        let versionHashes: [String: Data]
        let versionIdentifiers: [String]?

        enum CodingKeys: String, CodingKey {
            case uuid = "NSStoreUUID"
            case versionHashes = "NSStoreModelVersionHashes"
            case versionIdentifiers = "NSStoreModelVersionIdentifiers"
        }
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
