import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `PersistentStoreOption` values: pragmas from an allow-list only, typed values, and a
/// `.storeOpenFailed` naming the key for anything else.
@Suite struct StoreOptionsTests {
    private func open(_ options: [String: any Sendable], at url: URL) throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator.opening(Models.nestedList(), at: url, options: options)
    }

    @Test func pragmasAreApplied() throws {
        let folder = TemporaryFolder()
        let coordinator = try open([PersistentStoreOption.sqlitePragmas: ["journal_mode": "DELETE", "page_size": "1024"]], at: folder.file())
        let inspector = SQLiteInspector(folder.file())
        #expect(try inspector.strings("PRAGMA journal_mode") == ["delete"])
        #expect(try inspector.strings("PRAGMA page_size") == ["1024"])
        coordinator.persistentStores.forEach(coordinator.remove)
        #expect(FolderSnapshot(folder.url).files.keys.sorted() == ["store.sqlite"])
    }

    @Test(arguments: [
        ["journal_mode": "DELETE; DROP TABLE Z_METADATA"],
        ["journal_mode = WAL; DROP TABLE Z_METADATA; PRAGMA synchronous": "FULL"],
        ["key": "'secret'"],
        ["cache_size": "10 OR 1"],
        ["page_size": "1000"],
    ])
    func unknownPragmasAndValuesAreRefusedBeforeTheFileIsCreated(pragmas: [String: String]) throws {
        let folder = TemporaryFolder()
        let error = try #require(throws: CoreDataError.self) { try open([PersistentStoreOption.sqlitePragmas: pragmas], at: folder.file()) }
        #expect(error.code == .storeOpenFailed)
        #expect(error.key == PersistentStoreOption.sqlitePragmas)
        #expect(FolderSnapshot(folder.url).files.isEmpty)
    }

    @Test(arguments: [
        (PersistentStoreOption.timeout, "five" as any Sendable),
        (PersistentStoreOption.timeout, -1.0 as any Sendable),
        (PersistentStoreOption.readOnly, "yes" as any Sendable),
        (PersistentStoreOption.verifiesOnOpen, 1.5 as any Sendable),
        (PersistentStoreOption.sqlitePragmas, "journal_mode=DELETE" as any Sendable),
    ])
    func wrongTypedValuesNameTheirKey(key: String, value: any Sendable) throws {
        let folder = TemporaryFolder()
        let error = try #require(throws: CoreDataError.self) { try open([key: value], at: folder.file()) }
        #expect(error.code == .storeOpenFailed)
        #expect(error.key == key)
        #expect(error.message.contains(key))
    }

    @Test(arguments: [0.0, 1e300, Double(Int.max)])
    func extremeTimeoutsAreAccepted(seconds: Double) throws {
        let folder = TemporaryFolder()
        let coordinator = try open([PersistentStoreOption.timeout: seconds], at: folder.file())
        #expect(coordinator.persistentStores.count == 1)
    }

    @Test func verifiesOnOpenRefusesADamagedPageThatAPlainOpenReadsPast() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            for index in 0..<400 { _ = stack.insert("Item", ["title": "item \(index) " + String(repeating: "x", count: 200)]) }
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        let url = try #require(stack.storeURL)
        // A leaf page of ZITEM's title index, far from what opening reads.
        let page = try #require(Int(try SQLiteInspector(url).strings("SELECT rootpage FROM sqlite_master WHERE name = 'ZITEM'").first ?? ""))
        var data = try Data(contentsOf: url)
        let pageSize = 4096, damaged = (page + 3) * pageSize
        #expect(data.count > damaged + pageSize)
        for offset in damaged + 8..<damaged + 200 { data[offset] ^= 0x5A }
        try data.write(to: url)
        _ = try open([:], at: url)
        let before = FolderSnapshot(stack.folder.url)
        let error = try #require(throws: CoreDataError.self) { try open([PersistentStoreOption.verifiesOnOpen: true], at: url) }
        #expect(error.code == .storeCorrupt)
        #expect(error.message.contains("quick_check"))
        #expect(FolderSnapshot(stack.folder.url) == before)
    }
}
