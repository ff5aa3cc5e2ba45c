import Foundation
import Testing
@testable import ocd_torture
import OpenCoreData
import OpenCoreDataTestSupport

/// The scenario, across two real processes: process A (`ocd-torture
/// remote-writer`) saves; this process (B) is notified, fetches the history after the last
/// token it merged, skips its own transactions by author, merges the rest, and its context
/// and a fetched results controller on it show A's change — inserts and a batch update.
@Suite(.serialized) struct RemoteChangeHistoryScenarioTests {
    /// What B's fetched results controller reported, in order.
    final class Changes: FetchedResultsControllerDelegate, @unchecked Sendable {
        // @unchecked Sendable: only used on the context's queue.
        var events: [String] = []
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            let title = anObject.value(forKey: "title") as? String ?? "?"
            events.append("\(type) \(title)")
        }
    }

    /// B's side: merges the history after each notification on its context's queue.
    final class Merger: @unchecked Sendable {
        // @unchecked Sendable: `lastToken` and `merged` are touched in `context.perform` only.
        let context: ManagedObjectContext
        var lastToken: PersistentHistoryToken?
        var merged: [Int64] = []
        var failures: [String] = []
        init(_ context: ManagedObjectContext) { self.context = context }

        func mergeNewHistory() {
            context.perform { [self] in
                do {
                    for transaction in try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: lastToken)).transactions {
                        lastToken = transaction.token
                        guard transaction.author != "B" else { continue }      // our own saves
                        context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                        merged.append(transaction.transactionNumber)
                    }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
    }

    @Test func anotherProcessesSaveIsMergedFromTheHistoryIntoAContextAndItsFetchedResultsController() throws {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let path = folder.file().path
        let stack = try TortureStack(path: path, options: [
            PersistentStoreOption.persistentHistoryTracking: true,
            PersistentStoreOption.remoteChangeNotificationPost: true,
        ])
        let context = stack.context
        context.transactionAuthor = "B"
        let changes = Changes()
        let controller = try context.performAndWait {
            // B's own save: notified too, and skipped by author.
            _ = stack.insert("Item", ["title": "B's own"])
            try context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [CDSortDescriptor(key: "title")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = changes
            try controller.performFetch()
            return controller
        }
        let merger = Merger(context)
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: stack.coordinator, queue: nil
        ) { _ in merger.mergeNewHistory() }
        defer { NotificationCenter.default.removeObserver(observer) }

        let child = try ChildProcess(helper.binary, ["remote-writer", "--store", path, "--seconds", "60"])
        try #require(child.waitForLine(timeout: 30) { $0 == "armed" } != nil, "A did not start: \(child.standardError)")
        child.send("save Apples")
        #expect(child.waitForLine(timeout: 10) { $0 == "ack save Apples" } != nil)

        func titles() -> [String] {
            context.performAndWait { controller.fetchedObjects?.map { $0.value(forKey: "title") as? String ?? "?" } ?? [] }
        }
        func settle(_ done: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(RemoteChangeNotificationTests.bound + 1)
            while !done(), Date() < deadline { usleep(5_000) }
            return done()
        }
        #expect(settle { titles() == ["Apples", "B's own"] }, "B's controller shows \(titles())")
        context.performAndWait {
            #expect(changes.events == ["insert Apples"])
            #expect(merger.merged.count == 1, "merged \(merger.merged): B's own transaction must be skipped")
            #expect(merger.failures.isEmpty, "\(merger.failures)")
        }

        // A batch update in A: recorded in the history, merged as updates.
        child.send("batch fruit")
        #expect(child.waitForLine(timeout: 10) { $0.hasPrefix("ack batch") }?.text == "ack batch 2")
        let groups = { context.performAndWait { controller.fetchedObjects?.map { $0.value(forKey: "group") as? String } ?? [] } }
        #expect(settle { groups() == ["fruit", "fruit"] }, "B's objects show groups \(groups())")
        context.performAndWait { #expect(merger.failures.isEmpty, "\(merger.failures)") }

        child.send("quit")
        #expect(child.finish(timeout: 10).lines.last?.text == "done")
    }
}
