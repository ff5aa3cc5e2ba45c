import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// Runs the example of docs/persistent-history.md.
@Suite struct PersistentHistoryDocTests {
    @Test func theDocExampleRuns() throws {
        let model = Models.nestedList()
        let folder = TemporaryFolder()
        let storeURL = folder.file()

        // example: persistent-history
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: [PersistentHistoryTrackingKey: true])

        // A writer saves, under an author.
        let writer = ManagedObjectContext(concurrencyType: .privateQueue)
        writer.persistentStoreCoordinator = coordinator
        try writer.performAndWait {
            writer.transactionAuthor = "importer"
            EntityDescription.insertNewObject(forEntityName: "Item", into: writer).setValue("Milk", forKey: "title")
            try writer.save()
        }

        // A reader merges what was saved since its last token, skipping its own saves.
        let reader = ManagedObjectContext(concurrencyType: .privateQueue)
        reader.persistentStoreCoordinator = coordinator
        var lastToken: PersistentHistoryToken? = nil             // Codable: keep it across launches
        try reader.performAndWait {
            reader.transactionAuthor = "reader"
            let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let transactions = try reader.execute(request).transactions
            for transaction in transactions where transaction.author != reader.transactionAuthor {
                reader.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                print(transaction.author ?? "-", transaction.changes?.map(\.changeType) ?? [])   // importer [insert]
            }
            lastToken = transactions.last?.token ?? lastToken
            // History every reader has merged can go.
            _ = try reader.execute(PersistentHistoryChangeRequest.deleteHistory(before: lastToken))
        }
        let saved = try JSONEncoder().encode(lastToken)
        // end example

        #expect(DocExample.mismatch(doc: "persistent-history.md", name: "persistent-history") == nil)
        let token = try #require(lastToken)
        #expect(try JSONDecoder().decode(PersistentHistoryToken.self, from: saved) == token)
        let titles: [String?] = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Milk"])
        let left: [Int] = try reader.performAndWait {
            try [nil, token].map { try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: $0)).transactions.count }
        }
        #expect(left == [0, 0])   // all deleted; the token is still valid
    }
}
