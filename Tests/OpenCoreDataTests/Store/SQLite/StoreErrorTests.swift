import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Errors name their cause: a locked store times out, a read-only one refuses writes,
/// and neither is ever reported as corrupt; the context keeps its changes for a retry.
@Suite struct StoreErrorTests {
    private func closedStore(_ titles: [String]) throws -> TestStack {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            for title in titles { _ = stack.insert("Item", ["title": title]) }
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        return stack
    }

    private func context(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test func aSaveBlockedPastTheTimeoutThrowsStoreTimeoutAndCanBeRetried() throws {
        let stack = try closedStore([])
        let url = try #require(stack.storeURL)
        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url, options: [PersistentStoreOption.timeout: 0.2])
        let context = context(coordinator)
        let holder = try RawSQLiteConnection(url)
        try holder.execute("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        let error = try context.performAndWait {
            EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("waiting", forKey: "title")
            return try #require(throws: CoreDataError.self) { try context.save() }
        }
        #expect(error.code == .storeTimeout)
        #expect(error.message.contains("locked"))
        #expect(ContinuousClock.now - started >= .milliseconds(150))
        #expect(context.performAndWait { context.hasChanges })
        try holder.execute("ROLLBACK")
        holder.close()
        #expect(try SQLiteInspector(url).strings("SELECT count(*) FROM ZITEM") == ["0"])
        try context.performAndWait { try context.save() }
        #expect(try SQLiteInspector(url).strings("SELECT ZTITLE FROM ZITEM") == ["waiting"])
    }

    @Test func aReadOnlyStoreFetchesAndRefusesSavesKeepingTheChanges() throws {
        let stack = try closedStore(["one", "two"])
        let url = try #require(stack.storeURL)
        let before = FolderSnapshot(stack.folder.url)
        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url, options: [PersistentStoreOption.readOnly: true])
        let context = context(coordinator)
        let error = try context.performAndWait {
            #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).count == 2)
            EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("three", forKey: "title")
            return try #require(throws: CoreDataError.self) { try context.save() }
        }
        #expect(error.code == .storeReadOnly)
        #expect(context.performAndWait { context.hasChanges })
        coordinator.persistentStores.forEach(coordinator.remove)
        #expect(FolderSnapshot(stack.folder.url).files["store.sqlite"] == before.files["store.sqlite"])
    }

    @Test func aMissingStoreOpenedReadOnlyIsNotCreated() throws {
        let folder = TemporaryFolder()
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.opening(Models.nestedList(), at: folder.file(), options: [PersistentStoreOption.readOnly: true])
        }
        #expect(error.code == .storeOpenFailed)
        #expect(FolderSnapshot(folder.url).files.isEmpty)
    }

    /// A read-only connection cannot roll a hot journal back: that is `.storeReadOnly`
    /// (open it writable once), never `.storeCorrupt`.
    @Test func aHotJournalOpenedReadOnlyIsReadOnlyNotCorrupt() throws {
        let stack = try closedStore(["kept"])
        let url = try #require(stack.storeURL)
        try SQLiteInspector(url).execute("PRAGMA journal_mode = DELETE")
        let copy = TemporaryFolder()
        let writer = try RawSQLiteConnection(url)
        try writer.execute("PRAGMA cache_size = 10; BEGIN IMMEDIATE")
        try writer.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZORDER) SELECT 100 + i, 1, 1, hex(randomblob(500)), 0 FROM n")
        try FileManager.default.copyItem(at: url, to: copy.file())
        try FileManager.default.copyItem(atPath: url.path + "-journal", toPath: copy.file().path + "-journal")
        writer.close()
        let before = FolderSnapshot(copy.url)
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.opening(Models.nestedList(), at: copy.file(), options: [PersistentStoreOption.readOnly: true])
        }
        #expect(error.code == .storeReadOnly)
        #expect(FolderSnapshot(copy.url) == before)
    }

    /// A folder SQLite cannot create the `-shm` in. Permission bits do not bind root, so
    /// as root the test runs itself again as user `nobody`.
    @Test func aStoreInAReadOnlyFolderIsReadOnlyNotCorrupt() throws {
        guard geteuid() != 0 else { return try UnprivilegedRun.test("StoreErrorTests/aStoreInAReadOnlyFolderIsReadOnlyNotCorrupt") }
        let stack = try closedStore(["kept"])
        let url = try #require(stack.storeURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: stack.folder.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stack.folder.url.path) }
        let before = FolderSnapshot(stack.folder.url)
        let error = try #require(throws: CoreDataError.self) { try PersistentStoreCoordinator.opening(Models.nestedList(), at: url) }
        #expect(error.code == .storeReadOnly)
        #expect(FolderSnapshot(stack.folder.url) == before)
    }

    /// A store file without write permission opens (SQLite falls back to reading) and
    /// refuses saves with `.storeReadOnly`, keeping the context's changes.
    @Test func aReadOnlyFileRefusesSavesWithStoreReadOnly() throws {
        guard geteuid() != 0 else { return try UnprivilegedRun.test("StoreErrorTests/aReadOnlyFileRefusesSavesWithStoreReadOnly") }
        let stack = try closedStore(["kept"])
        let url = try #require(stack.storeURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url)
        let context = context(coordinator)
        let error = try context.performAndWait {
            #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).count == 1)
            EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("more", forKey: "title")
            return try #require(throws: CoreDataError.self) { try context.save() }
        }
        #expect(error.code == .storeReadOnly)
        #expect(context.performAndWait { context.hasChanges })
    }

    /// Another connection holding the file's exclusive lock past the timeout makes the open
    /// fail with `.storeTimeout`: a busy store is never reported corrupt.
    @Test func aStoreLockedPastTheTimeoutAtOpenIsATimeoutNotCorrupt() throws {
        let stack = try closedStore(["kept"])
        let url = try #require(stack.storeURL)
        try SQLiteInspector(url).execute("PRAGMA journal_mode = DELETE")
        let holder = try RawSQLiteConnection(url)
        try holder.execute("BEGIN EXCLUSIVE")
        let before = FolderSnapshot(stack.folder.url)
        let error = try #require(throws: CoreDataError.self) {
            try PersistentStoreCoordinator.opening(Models.nestedList(), at: url, options: [PersistentStoreOption.timeout: 0.1])
        }
        #expect(error.code == .storeTimeout)
        #expect(FolderSnapshot(stack.folder.url) == before)
        try holder.execute("ROLLBACK")
        holder.close()
        _ = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url)
    }
}
