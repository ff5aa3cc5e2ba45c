import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Files that an interrupted creation, a crash or a bad path leave behind: each opens
/// as the store it holds, or throws a typed error and leaves the folder as it was.
@Suite struct StoreRecoveryTests {
    private func items(in coordinator: PersistentStoreCoordinator) throws -> [String] {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
            return try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "" }
        }
    }

    /// A closed nested-list store holding items titled `titles`.
    private func closedStore(_ titles: [String], in folder: TemporaryFolder = TemporaryFolder()) throws -> TestStack {
        let stack = try TestStack(model: Models.nestedList(), folder: folder)
        try stack.context.performAndWait {
            for title in titles { _ = stack.insert("Item", ["title": title]) }
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        return stack
    }

    @Test func aDirectoryAtTheStorePathIsRefusedAndKept() throws {
        let folder = TemporaryFolder()
        let url = folder.file("store.sqlite")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: url.appendingPathComponent("note.txt"))
        let before = FolderSnapshot(url)
        let error = try #require(throws: CoreDataError.self) { try PersistentStoreCoordinator.opening(Models.nestedList(), at: url) }
        #expect(error.code == .storeOpenFailed)
        #expect(error.message.contains("directory"))
        #expect(FolderSnapshot(url) == before)
    }

    @Test func aRegularFileAsTheParentFolderThrowsACoreDataError() throws {
        let folder = TemporaryFolder()
        let plain = folder.file("plain")
        try Data("a file, not a folder".utf8).write(to: plain)
        for url in [plain.appendingPathComponent("store.sqlite"), plain.appendingPathComponent("deeper/store.sqlite")] {
            let error = try #require(throws: CoreDataError.self) { try PersistentStoreCoordinator.opening(Models.nestedList(), at: url) }
            #expect(error.code == .storeOpenFailed)
        }
        #expect(FileManager.default.contents(atPath: plain.path) == Data("a file, not a folder".utf8))
    }

    /// A creation killed after `PRAGMA journal_mode = WAL` leaves a SQLite file with no
    /// tables: the next open finishes the store instead of refusing it forever.
    @Test(arguments: ["PRAGMA journal_mode = WAL", "PRAGMA journal_mode = DELETE; PRAGMA user_version = 7"])
    func aSQLiteFileWithNoTablesBecomesTheStore(preparation: String) throws {
        let folder = TemporaryFolder()
        let url = folder.file()
        try SQLiteInspector(url).execute(preparation)
        #expect(try SQLiteInspector(url).strings("SELECT count(*) FROM sqlite_master") == ["0"])
        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url)
        #expect(try SQLiteInspector(url).strings("SELECT count(*) FROM Z_METADATA") == ["1"])
        #expect(try items(in: coordinator).isEmpty)
    }

    /// A rollback journal left by a crash in the middle of a transaction is rolled back
    /// (as the sqlite3 shell would) instead of the store being reported corrupt.
    @Test func aHotRollbackJournalIsRolledBack() throws {
        let original = try closedStore((0..<20).map { "before \($0)" })
        let url = try #require(original.storeURL)
        try SQLiteInspector(url).execute("PRAGMA journal_mode = DELETE")
        let copy = TemporaryFolder()
        let writer = try RawSQLiteConnection(url)
        try writer.execute("PRAGMA cache_size = 10; BEGIN IMMEDIATE")
        try writer.execute("UPDATE ZITEM SET ZTITLE = 'after ' || hex(randomblob(1500))")
        try writer.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZORDER) SELECT 100 + i, 1, 1, hex(randomblob(500)), 0 FROM n")
        // The transaction spilled to the file: copy the file and its journal as a crash would leave them.
        let journal = URL(fileURLWithPath: url.path + "-journal")
        #expect(FileManager.default.fileExists(atPath: journal.path))
        try FileManager.default.copyItem(at: url, to: copy.file())
        try FileManager.default.copyItem(at: journal, to: copy.file("store.sqlite-journal"))
        writer.close()
        #expect(try Data(contentsOf: copy.file("store.sqlite-journal")).count > 4096)

        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: copy.file())
        #expect(try items(in: coordinator) == (0..<20).map { "before \($0)" }.sorted())
    }

    /// A crash before the WAL was checkpointed: the committed saves live only in the `-wal`
    /// (the `-shm` is rebuilt from it).
    @Test func savesLeftOnlyInTheWALAreRead() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            for title in ["in", "the", "wal"] { _ = stack.insert("Item", ["title": title]) }
            try stack.context.save()
        }
        let url = try #require(stack.storeURL)
        let copy = TemporaryFolder()
        try FileManager.default.copyItem(at: url, to: copy.file())
        try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: copy.file().path + "-wal")
        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: copy.file())
        #expect(try items(in: coordinator) == ["in", "the", "wal"])
    }

    @Test func twoCoordinatorsCreatingTheSameStoreAtOnceBothSucceed() throws {
        for _ in 0..<24 {
            let folder = TemporaryFolder()
            let url = folder.file()
            let results = Results()
            DispatchQueue.concurrentPerform(iterations: 3) { _ in
                do {
                    let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url)
                    results.append(.success(coordinator.persistentStores[0].identifier))
                } catch {
                    results.append(.failure(error as? CoreDataError ?? CoreDataError(.sqliteError, "\(error)")))
                }
            }
            let identifiers = try results.values.map { try $0.get() }
            #expect(Set(identifiers).count == 1)
            #expect(try SQLiteInspector(url).strings("SELECT Z_UUID FROM Z_METADATA") == [identifiers[0]])
            #expect(try SQLiteInspector(url).strings("SELECT count(*) FROM Z_PRIMARYKEY") == ["1"])
        }
    }

    private final class Results: @unchecked Sendable {
        // @unchecked Sendable: `values` is only touched under `lock`.
        private let lock = NSLock()
        private var stored: [Result<String, CoreDataError>] = []
        func append(_ result: Result<String, CoreDataError>) { lock.withLock { stored.append(result) } }
        var values: [Result<String, CoreDataError>] { lock.withLock { stored } }
    }

    /// A `Z_MAX` behind the table's largest key would hand out existing keys: the open
    /// raises it, and new objects save next to the old ones.
    @Test func aPrimaryKeyCounterBehindTheTableIsHealedAtOpen() throws {
        let stack = try closedStore(["a", "b", "c", "d"])
        let url = try #require(stack.storeURL)
        try SQLiteInspector(url).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1")
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            for title in ["e", "f"] { _ = reopened.insert("Item", ["title": title]) }
            try reopened.context.save()
        }
        #expect(try items(in: reopened.coordinator) == ["a", "b", "c", "d", "e", "f"])
        #expect(try SQLiteInspector(url).strings("SELECT Z_MAX FROM Z_PRIMARYKEY") == ["6"])
    }

    @Test func anIncompatibleModelLeavesTheFolderExactlyAsItWas() throws {
        let stack = try closedStore(["kept"])
        let before = FolderSnapshot(stack.folder.url)
        #expect(before.files.count == 1)
        let changed = Models.nestedList()
        changed.entities[0].properties.append(AttributeDescription(name: "note", type: .string))
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.opening(changed, at: try #require(stack.storeURL))
        }
        #expect(error.code == .incompatibleModel)
        #expect(FolderSnapshot(stack.folder.url) == before)
    }
}
