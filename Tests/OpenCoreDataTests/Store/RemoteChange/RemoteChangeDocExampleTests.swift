import Foundation
import Testing
@testable import ocd_torture
import OpenCoreData
import OpenCoreDataTestSupport

/// Runs the example of docs/remote-change-notifications.md.
@Suite struct RemoteChangeDocExampleTests {
    // The `for await` waits for the notification: a lost one fails the test at the limit.
    @Test(.timeLimit(.minutes(1))) func theDocsExampleRunsAndMatchesTheDoc() async throws {
        let folder = TemporaryFolder()
        let storeURL = folder.file("Lists.sqlite")
        let model = TortureModel.make()
        var printed: [String] = []
        func print(_ label: String, _ value: String) { printed.append("\(label) \(value)") }

        // example: remote-change-notifications
        let options: [String: any Sendable] = [
            PersistentStoreOption.remoteChangeNotificationPost: true,   // PersistentStoreRemoteChangeNotificationPostOptionKey
            PersistentStoreOption.persistentHistoryTracking: true,      // for the token in each notification
        ]
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: options)

        // Posted on a private queue of the coordinator's: hand each one over to async code.
        let (changes, continuation) = AsyncStream.makeStream(of: URL?.self)
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { note in
            continuation.yield(note.userInfo?[PersistentStoreURLKey] as? URL)
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // Another program — here another coordinator — saves to the same file.
        let other = PersistentStoreCoordinator(managedObjectModel: model)
        try other.addPersistentStore(type: .sqlite, at: storeURL)
        let writer = ManagedObjectContext(concurrencyType: .privateQueue)
        writer.persistentStoreCoordinator = other
        try await writer.perform {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            item.setValue("Milk", forKey: "title")
            try writer.save()
        }

        for await url in changes {
            print("changed:", url?.lastPathComponent ?? "?")       // changed: Lists.sqlite
            break
        }
        // end example
        #expect(printed == ["changed: Lists.sqlite"])
        #expect(DocExample.mismatch(doc: "remote-change-notifications.md", name: "remote-change-notifications") == nil)
    }
}
