import BugsKit
import Foundation
import ListsKit
import OpenCoreData
import Testing

/// The store the command line writes is one a long-running process — the web app — can
/// watch: it records history and posts remote change notifications for the CLI's saves.
@Suite struct SharedStoreTests {
    /// Counts the remote change notifications a coordinator posts.
    final class Posted: @unchecked Sendable {
        // @unchecked Sendable: `count` is only touched under `condition`.
        private let condition = NSCondition()
        private var count = 0

        func post() { condition.withLock { count += 1; condition.broadcast() } }

        /// Whether a notification arrives within `timeout`.
        func wait(timeout: TimeInterval) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            return condition.withLock {
                while count == 0 { if !condition.wait(until: deadline) { return false } }
                return true
            }
        }
    }

    @Test func aWatchingProcessSeesTheCommandLinesSavesInHistory() throws {
        let cli = try DemoCLI()
        try cli.run(["lists", "ls"], expectingStatus: 0)
        let model = try ManagedObjectModel(byMerging: [NestedList.model(), BugsModel.makeModel()])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: cli.storePath), options: [
            PersistentStoreOption.persistentHistoryTracking: true,
            PersistentStoreOption.remoteChangeNotificationPost: true,
        ])
        let posted = Posted()
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { _ in posted.post() }
        defer { NotificationCenter.default.removeObserver(observer) }

        try cli.run(["lists", "add", "Milk"], expectingStatus: 0)
        try cli.run(["bugs", "add-project", "Site"], expectingStatus: 0)
        #expect(posted.wait(timeout: 5), "no remote change notification for the command line's saves")

        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        let inserted = try context.performAndWait {
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil)).transactions
                .filter { $0.bundleID == "opencoredata-demo" }
                .flatMap { $0.changes ?? [] }.filter { $0.changeType == .insert }
                .map(\.changedObjectID.entity.name)
        }
        #expect(inserted.sorted() == ["Item", "Item", "Project"], "the root, Milk and Site")
    }
}
