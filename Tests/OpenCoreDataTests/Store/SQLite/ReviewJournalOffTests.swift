import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: a failed save leaves the store as it was, whatever pragmas the options set.
@Suite struct ReviewJournalOffTests {
    @Test(arguments: ["OFF", "MEMORY", "DELETE"])
    func aFailedLargeSaveWritesNothing(journalMode: String) throws {
        let folder = TemporaryFolder()
        let options: [String: any Sendable] = [PersistentStoreOption.sqlitePragmas: ["journal_mode": journalMode, "cache_size": "2"]]
        let coordinator: PersistentStoreCoordinator
        do {
            coordinator = try PersistentStoreCoordinator.opening(Models.allTypes(), at: folder.file(), options: options)
        } catch let error as CoreDataError {
            // Refusing the option is an honest answer too.
            #expect(error.code == .storeOpenFailed)
            return
        }
        let context = ManagedObjectContext(concurrencyType: .mainQueue)
        context.persistentStoreCoordinator = coordinator
        let blob = Data(repeating: 7, count: 2_000)
        let saved = context.performAndWait { () -> Bool in
            for index in 0..<2_000 {
                let thing = EntityDescription.insertNewObject(forEntityName: "Thing", into: context)
                thing.setValue("n\(index)", forKey: "name")
                thing.setValue(blob, forKey: "data")
            }
            for _ in 0..<2 {
                let twin = EntityDescription.insertNewObject(forEntityName: "Thing", into: context)
                twin.setValue("twin", forKey: "name")
                twin.setValue("ABC", forKey: "code")
            }
            return (try? context.save()) != nil
        }
        #expect(!saved)
        let reader = try PersistentStoreCoordinator.opening(Models.allTypes(), at: folder.file())
        let readContext = ManagedObjectContext(concurrencyType: .mainQueue)
        readContext.persistentStoreCoordinator = reader
        let count = try readContext.performAndWait { try readContext.count(for: FetchRequest<ManagedObject>(entityName: "Thing")) }
        #expect(count == 0)
    }
}
