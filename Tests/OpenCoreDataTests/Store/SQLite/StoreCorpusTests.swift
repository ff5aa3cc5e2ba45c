import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Replays the corpus of damaged stores in `Tests/StoreCorpus` (made by its
/// `make_corpus.py` from `good.sqlite`): every case opens with the rows it should hold or
/// throws the `CoreDataError` its manifest names, never crashes, and a refused open
/// leaves every file of the folder byte for byte as it was (SQLite may add the `-shm` of
/// a `-wal` that has none).
@Suite struct StoreCorpusTests {
    private static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("StoreCorpus")

    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let description: String
        let expect: String
        let verified: String
        let rows: Int?
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: corpus.appendingPathComponent("manifest.json").path),
              let cases = try? JSONDecoder().decode([Case].self, from: data) else { return [] }
        return cases
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.cases.count >= 30, "Tests/StoreCorpus/manifest.json is missing or unreadable")
    }

    @Test(arguments: cases)
    func replay(_ corpusCase: Case) throws {
        for verifies in [false, true] {
            let folder = TemporaryFolder()
            let source = Self.corpus.appendingPathComponent("cases").appendingPathComponent(corpusCase.name)
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.file(name))
            }
            let expected = verifies ? corpusCase.verified : corpusCase.expect
            let before = FolderSnapshot(folder.url)
            let options: [String: any Sendable] = [PersistentStoreOption.verifiesOnOpen: verifies]
            do {
                let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: folder.file(), options: options)
                let context = ManagedObjectContext(concurrencyType: .privateQueue)
                context.persistentStoreCoordinator = coordinator
                let rows = try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) }
                #expect(expected == "opens", "\(corpusCase.name) (verifies: \(verifies)) opened with \(rows) rows")
                #expect(rows == corpusCase.rows, "\(corpusCase.name) (verifies: \(verifies))")
                coordinator.persistentStores.forEach(coordinator.remove)
            } catch let error as CoreDataError {
                #expect(error.code.name == expected, "\(corpusCase.name) (verifies: \(verifies)): \(error)")
                var after = FolderSnapshot(folder.url)
                if before.files["store.sqlite-wal"] != nil && before.files["store.sqlite-shm"] == nil {
                    // Reading a -wal that has no -shm makes SQLite create that shared-memory
                    // index (no data); deleting it again could race with another process.
                    after = after.excluding("store.sqlite-shm")
                }
                #expect(after == before, "\(corpusCase.name) (verifies: \(verifies)) changed its folder")
            }
        }
    }

    /// Writes `Tests/StoreCorpus/good.sqlite`, the store every case is made from; run it
    /// (`OCD_WRITE_GOOD_STORE=1 swift test --filter StoreCorpusTests/writeTheGoodStore`)
    /// and then `make_corpus.py` when the nested-list model changes.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["OCD_WRITE_GOOD_STORE"] == "1"))
    func writeTheGoodStore() throws {
        let folder = TemporaryFolder()
        let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: folder.file(),
                                                                  options: [PersistentStoreOption.sqlitePragmas: ["page_size": "1024"]])
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for group in 0..<6 {
                let parent = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                parent.setValue("group \(group): a top-level item of the corpus store", forKey: "title")
                for index in 0..<9 {
                    let child = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    child.setValue("item \(group).\(index): a child item with a longer title", forKey: "title")
                    child.setValue(Int64(index), forKey: "order")
                    child.setValue(parent, forKey: "parent")
                }
            }
            try context.save()
        }
        coordinator.persistentStores.forEach(coordinator.remove)
        let target = Self.corpus.appendingPathComponent("good.sqlite")
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: folder.file(), to: target)
    }
}
