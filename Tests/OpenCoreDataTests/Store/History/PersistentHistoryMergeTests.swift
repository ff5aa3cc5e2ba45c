import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// Merging fetched history into a context with
/// `mergeChanges(fromContextDidSave: transaction.objectIDNotification())`, as an app does
/// with another process's saves.
@Suite struct PersistentHistoryMergeTests {
    /// Records the changes a fetched results controller reports.
    final class ChangeCounter: FetchedResultsControllerDelegate {
        var changes: [FetchedResultsChangeType: ManagedObjectID] = [:]
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            changes[type] = (anObject as ManagedObject).objectID
        }
    }

    @Test func theNotificationCarriesTheTransactionsObjectIDs() throws {
        let stack = try HistoryStack()
        let ids = try stack.insertAndSave(["Milk", "Eggs"])
        let context = stack.context
        try context.performAndWait {
            try context.existingObject(with: ids[0]).setValue("Oat milk", forKey: "title")
            context.delete(try context.existingObject(with: ids[1]))
            try context.save()
        }
        let history = try stack.history()
        typealias Key = ManagedObjectContext.NotificationKey
        let inserts = history[0].objectIDNotification()
        #expect(inserts.name == ManagedObjectContext.didSaveObjectIDsNotification)
        #expect(inserts.userInfo?[Key.insertedObjectIDs.rawValue] as? Set<ManagedObjectID> == Set(ids))
        let edits = history[1].objectIDNotification().userInfo
        #expect(edits?[Key.updatedObjectIDs.rawValue] as? Set<ManagedObjectID> == [ids[0]])
        #expect(edits?[Key.deletedObjectIDs.rawValue] as? Set<ManagedObjectID> == [ids[1]])
        #expect(edits?[Key.insertedObjectIDs.rawValue] as? Set<ManagedObjectID> == [])
    }

    @Test func mergingAnotherCoordinatorsHistoryUpdatesAContextAndItsFetchedResultsController() throws {
        let writer = try HistoryStack()
        let ids = try writer.insertAndSave(["Milk", "Eggs"])
        // Another coordinator on the file, as another process holds it.
        let reader = try writer.reopened()
        let context = reader.context
        let counter = ChangeCounter()
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let token: PersistentHistoryToken? = try context.performAndWait {
            controller.delegate = counter
            try controller.performFetch()
            return try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil)).transactions.last?.token
        }
        func titles() -> [String] {
            context.performAndWait {
                let objects: [ManagedObject] = controller.fetchedObjects ?? []
                return objects.map { $0.value(forKey: "title") as? String ?? "?" }
            }
        }
        #expect(titles() == ["Eggs", "Milk"])

        let writing = writer.context
        try writing.performAndWait {
            try writing.existingObject(with: ids[0]).setValue("Oat milk", forKey: "title")
            writing.delete(try writing.existingObject(with: ids[1]))
            EntityDescription.insertNewObject(forEntityName: "Item", into: writing).setValue("Bread", forKey: "title")
            try writing.save()
        }
        #expect(titles() == ["Eggs", "Milk"])   // nothing merged yet

        try context.performAndWait {
            let transactions = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions
            #expect(transactions.count == 1)
            for transaction in transactions { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            #expect(context.registeredObject(for: ids[1]) == nil)
            #expect(context.registeredObject(for: ids[0])?.value(forKey: "title") as? String == "Oat milk")
        }
        #expect(titles() == ["Bread", "Oat milk"])
        // Oat milk moves behind Bread; Eggs leaves; Bread arrives.
        #expect(counter.changes.count == 3)
        #expect(counter.changes[.delete] == ids[1])
        #expect(counter.changes[.move] == ids[0])
        #expect(counter.changes[.insert].map { !ids.contains($0) } == true)
    }
}
