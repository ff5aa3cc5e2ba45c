import Foundation
import Testing
@testable import ocd_torture
import OpenCoreData
import OpenCoreDataTestSupport

/// Runs the example of docs/remote-change-notifications.md.
@Suite struct RemoteChangeDocExampleTests {
    /// Stands in for `print` in the example, from any queue.
    final class Printed: @unchecked Sendable {
        // @unchecked Sendable: `lines` is read and written under `lock` only.
        private let lock = NSLock()
        private var recorded: [String] = []
        func callAsFunction(_ label: String, _ value: String) { lock.withLock { recorded.append("\(label) \(value)") } }
        var lines: [String] { lock.withLock { recorded } }
    }

    // The `for await` waits for the notification: a lost one fails the test at the limit.
    @Test(.timeLimit(.minutes(1))) func theDocsExampleRunsAndMatchesTheDoc() async throws {
        let folder = TemporaryFolder()
        let storeURL = folder.file("Lists.sqlite")
        let model = TortureModel.make()
        let print = Printed()

        // example: remote-change-notifications
        let options: [String: any Sendable] = [
            PersistentStoreOption.remoteChangeNotificationPost: true,   // PersistentStoreRemoteChangeNotificationPostOptionKey
            PersistentStoreOption.persistentHistoryTracking: true,      // the history, and its token in each notification
        ]
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: options)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator

        // Posted on a private queue of the coordinator's: hand each one over to async code.
        let (changes, continuation) = AsyncStream.makeStream(of: PersistentHistoryToken?.self)
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { note in
            continuation.yield(note.userInfo?[PersistentHistoryTokenKey] as? PersistentHistoryToken)
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // Another program — here another coordinator — saves to the same file.
        let other = PersistentStoreCoordinator(managedObjectModel: model)
        try other.addPersistentStore(type: .sqlite, at: storeURL, options: [PersistentStoreOption.persistentHistoryTracking: true])
        let writer = ManagedObjectContext(concurrencyType: .privateQueue)
        writer.persistentStoreCoordinator = other
        writer.transactionAuthor = "importer"
        try await writer.perform {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            item.setValue("Milk", forKey: "title")
            try writer.save()
        }

        var lastToken: PersistentHistoryToken? = nil                  // the last one merged (Codable: keep it)
        for await newest in changes where newest != lastToken {
            let after = lastToken
            lastToken = try await context.perform {
                let transactions = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: after)).transactions
                for transaction in transactions where transaction.author != "app" {   // skip our own saves
                    context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    print("merged:", transaction.author ?? "?")         // merged: importer
                }
                return transactions.last?.token ?? after
            }
            break                                                     // (an app keeps listening)
        }
        // end example
        #expect(print.lines == ["merged: importer"])
        #expect(lastToken != nil)
        #expect(DocExample.mismatch(doc: "remote-change-notifications.md", name: "remote-change-notifications") == nil)
    }
}
