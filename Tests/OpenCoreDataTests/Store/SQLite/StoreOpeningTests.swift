import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct StoreOpeningTests {
    private func bytes(of url: URL) -> Data? { FileManager.default.contents(atPath: url.path) }

    private func open(_ model: ManagedObjectModel, at url: URL) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
    }

    @Test func theFileHasCoreDataTablesAndMetadata() throws {
        let stack = try TestStack(model: Models.notes())
        let inspector = SQLiteInspector(stack.storeURL!)
        #expect(try inspector.strings("PRAGMA journal_mode") == ["wal"])
        #expect(try inspector.strings("SELECT Z_NAME || ':' || Z_ENT || ':' || Z_SUPER || ':' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                == ["Folder:1:0:0", "Note:2:0:0", "Tag:3:0:0"])
        #expect(try inspector.strings("SELECT name FROM pragma_table_info('ZNOTE') ORDER BY cid")
                == ["Z_PK", "Z_ENT", "Z_OPT", "ZTEXT", "ZFOLDER", "Z_FOK_FOLDER"])
        #expect(try inspector.strings("SELECT name FROM sqlite_master WHERE name LIKE 'Z\\_2%' ESCAPE '\\'") .contains("Z_2TAGS"))
        let metadata = try #require(stack.coordinator.persistentStores.first?.metadata)
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        let hashes = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes == Models.notes().entityVersionHashesByName)
        #expect(try inspector.strings("SELECT Z_UUID FROM Z_METADATA") == [stack.coordinator.persistentStores[0].identifier])
    }

    @Test func aStoreReopenedWithAChangedModelThrowsAndIsNotTouched() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "kept"])
            try stack.context.save()
        }
        let url = stack.storeURL!
        let wal = URL(fileURLWithPath: url.path + "-wal")
        let before = (bytes(of: url), bytes(of: wal))
        let changed = Models.nestedList()
        changed.entities[0].properties.append(AttributeDescription(name: "note", type: .string))
        let error = try #require(throws: CoreDataError.self) { try open(changed, at: url) }
        #expect(error.code == .incompatibleModel)
        #expect(error.message.contains("Item"))
        #expect(bytes(of: url) == before.0)
        #expect(bytes(of: wal) == before.1)
        // The original model still opens it, with the data intact.
        let reopened = try stack.reopened(model: Models.nestedList())
        let found = try reopened.context.performAndWait { try reopened.fetch("Item").count }
        #expect(found == 1)
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndKept() throws {
        let folder = TemporaryFolder()
        let url = folder.file("notes.txt")
        let content = Data("{\"this is\": \"json, not a store\"}".utf8)
        try content.write(to: url)
        let error = try #require(throws: CoreDataError.self) { try open(Models.nestedList(), at: url) }
        #expect(error.code == .notAStore)
        #expect(bytes(of: url) == content)
    }

    @Test func aSQLiteDatabaseWithoutMetadataIsRefusedAndKept() throws {
        let folder = TemporaryFolder()
        let url = folder.file("foreign.sqlite")
        try SQLiteInspector(url).execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('x');")
        let before = bytes(of: url)
        let error = try #require(throws: CoreDataError.self) { try open(Models.nestedList(), at: url) }
        #expect(error.code == .notAStore)
        #expect(bytes(of: url) == before)
    }

    @Test func aCorruptStoreThrowsAndIsNotOverwritten() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            for index in 0..<200 { _ = stack.insert("Item", ["title": String(repeating: "x", count: 100) + "\(index)"]) }
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        let url = stack.storeURL!
        try SQLiteInspector(url).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var data = try #require(bytes(of: url))
        // Keep the 100-byte header valid, scribble over the schema page.
        for offset in 100..<min(4096, data.count) { data[offset] = UInt8(truncatingIfNeeded: offset * 7) }
        try data.write(to: url)
        let error = try #require(throws: CoreDataError.self) { try open(Models.nestedList(), at: url) }
        #expect([.storeCorrupt, .notAStore].contains(error.code))
        #expect(bytes(of: url) == data)
    }

    @Test func aZeroLengthFileBecomesANewStore() throws {
        let folder = TemporaryFolder()
        let url = folder.file("empty.sqlite")
        _ = FileManager.default.createFile(atPath: url.path, contents: Data())
        try open(Models.nestedList(), at: url)
        #expect(try SQLiteInspector(url).strings("SELECT count(*) FROM Z_METADATA") == ["1"])
    }

    @Test func fetchIndexesAndConstraintsBecomeSQLiteIndexes() throws {
        let model = Models.allTypes()
        model.entities[0].indexes = [FetchIndexDescription(name: "byName", elements: [.init(propertyName: "name"), .init(propertyName: "int64", isAscending: false)])]
        let stack = try TestStack(model: model)
        let sql = try SQLiteInspector(stack.storeURL!).strings("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        #expect(sql.contains { $0.contains("UNIQUE") && $0.contains("(ZCODE)") })
        #expect(sql.contains { $0.contains("(ZNAME, ZINT64 DESC)") })
    }

    @Test func inMemoryStoresAreIndependent() throws {
        let first = try TestStack(model: Models.nestedList(), kind: .inMemory)
        let second = try TestStack(model: Models.nestedList(), kind: .inMemory)
        try first.context.performAndWait {
            _ = first.insert("Item", ["title": "only here"])
            try first.context.save()
        }
        let found = try second.context.performAndWait { try second.fetch("Item") }
        #expect(found.isEmpty)
        #expect(first.coordinator.persistentStores[0].type == .inMemory)
    }
}
