import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A document merges what another document (another coordinator, as another process
/// would have) saved to its store, read from the store's persistent history. The
/// merging document here has remote change notifications off, so that the test decides
/// when it merges (`ManagedDocumentTwoProcessTests` shows the notified path).
@Suite struct ManagedDocumentHistoryTests {
    typealias Support = ManagedDocumentTests

    /// Counts the controller's content changes (a controller follows its context only
    /// while it has a delegate, as in Core Data).
    final class ChangeCounter: FetchedResultsControllerDelegate, @unchecked Sendable {
        var changes = 0
        func controllerDidChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) { changes += 1 }
    }

    /// Waits for `mergeNewHistory` to finish.
    static func merge(_ document: ManagedDocument) async {
        await withCheckedContinuation { continuation in document.mergeNewHistory { continuation.resume() } }
    }

    /// A document at `url` that saved one card titled "one", and a second, open document on
    /// the same package that merges only when told (`merge(_:)`).
    static func savedCardAndSecondEditor(at url: URL) async throws -> (first: Support.RecordingDocument, second: Support.RecordingDocument) {
        let first = Support.RecordingDocument(fileURL: url, managedObjectModel: Support.model())
        first.autosaveDelay = 0
        #expect(await first.save(to: url, for: .forCreating))
        _ = try await Support.insertCard(first, title: "one")
        #expect(await first.save(to: url, for: .forOverwriting))
        let second = Support.unnotifiedDocument(at: url)
        #expect(await second.open())
        return (first, second)
    }

    @Test func anotherDocumentsSavesAreMergedIntoTheContextAndItsController() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let (first, second) = try await Self.savedCardAndSecondEditor(at: url)
        let context = second.managedObjectContext
        // Held: the card (so its values stay registered) and a controller on the context.
        let held = Collected<ManagedObject>()
        let controllers = Collected<FetchedResultsController<ManagedObject>>()
        let counter = ChangeCounter()
        try await context.perform {
            let request = FetchRequest<ManagedObject>(entityName: "Card")
            request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = counter
            try controller.performFetch()
            controllers.append(controller)
            held.append(try #require(controller.fetchedObjects?.first))
            held.values[0].setValue("second's body", forKey: "body")  // an unsaved edit
        }

        try await Support.editCard(first, "title", "renamed")
        _ = try await Support.insertCard(first, title: "two")
        #expect(await first.save(to: url, for: .forOverwriting))

        // Not merged yet: the held card still shows what the document read.
        #expect(try await context.perform { held.values[0].value(forKey: "title") as? String } == "one")
        await Self.merge(second)
        let seen = try await context.perform { () -> [String?] in
            let card = held.values[0]
            let titles = controllers.values[0].fetchedObjects?.map { $0.value(forKey: "title") as? String } ?? []
            return [card.value(forKey: "title") as? String, card.value(forKey: "body") as? String] + titles
        }
        #expect(seen == ["renamed", "second's body", "renamed", "two"])
        #expect(try await context.perform { counter.changes } > 0)
        // The unsaved edit saves over the merged row without a conflict.
        #expect(await second.save(to: url, for: .forOverwriting))
        #expect(second.documentState == .normal)
        let reader = Support.RecordingDocument(fileURL: url, managedObjectModel: Support.model())
        #expect(await reader.open())
        let readerContext = reader.managedObjectContext
        let stored = try await readerContext.perform {
            let request = FetchRequest<ManagedObject>(entityName: "Card")
            request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
            return try readerContext.fetch(request).map { "\($0.value(forKey: "title") as? String ?? "-")/\($0.value(forKey: "body") as? String ?? "-")" }
        }
        #expect(stored == ["renamed/second's body", "two/-"])
    }

    /// With notifications on (the default), a document merges another's saves by itself,
    /// also into objects it inserted and saved itself (they take their permanent IDs when
    /// saved, the IDs the history names).
    @Test func aNotifiedDocumentMergesByItselfIntoObjectsItInserted() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let second = Support.RecordingDocument(fileURL: url, managedObjectModel: Support.model())
        second.autosaveDelay = 0
        #expect(await second.save(to: url, for: .forCreating))
        let context = second.managedObjectContext
        let held = Collected<ManagedObject>()
        try await context.perform {
            let card = EntityDescription.insertNewObject(forEntityName: "Card", into: context)
            card.setValue("mine", forKey: "title")
            held.append(card)
        }
        #expect(await second.save(to: url, for: .forOverwriting))
        #expect(try await context.perform { !held.values[0].objectID.isTemporaryID })
        let first = Support.RecordingDocument(fileURL: url, managedObjectModel: Support.model())
        first.autosaveDelay = 0
        #expect(await first.open())
        try await Support.editCard(first, "title", "theirs")
        #expect(await first.save(to: url, for: .forOverwriting))
        var seen: String?
        for _ in 0..<400 {
            seen = try await context.perform { held.values[0].value(forKey: "title") as? String }
            if seen == "theirs" { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(seen == "theirs")
        #expect(second.errors.values.isEmpty)
    }

    /// A document skips its own transactions, and a merge with nothing new changes nothing.
    @Test func aDocumentSkipsItsOwnSaves() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = Support.RecordingDocument(fileURL: url, managedObjectModel: Support.model())
        document.autosaveDelay = 0
        #expect(await document.save(to: url, for: .forCreating))
        _ = try await Support.insertCard(document, title: "mine")
        #expect(await document.save(to: url, for: .forOverwriting))
        let context = document.managedObjectContext
        let changes = Collected<Notification>()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil) {
            changes.append($0)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        await Self.merge(document)
        await Self.merge(document)
        #expect(changes.values.isEmpty)
        #expect(document.errors.values.isEmpty)
    }

    /// When the history after the token was deleted, the document refreshes everything.
    @Test func anExpiredTokenRefreshesEverything() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let (first, second) = try await Self.savedCardAndSecondEditor(at: url)
        let context = second.managedObjectContext
        let held = Collected<ManagedObject>()
        try await context.perform { held.append(try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Card")).first)) }
        try await Support.editCard(first, "title", "renamed")
        #expect(await first.save(to: url, for: .forOverwriting))
        // Someone deletes all history, including what `second` has not merged.
        let cleaner = first.writer
        try await cleaner.perform { _ = try cleaner.execute(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?)) }
        await Self.merge(second)
        #expect(try await context.perform { held.values[0].value(forKey: "title") as? String } == "renamed")
        #expect(second.errors.values.isEmpty)
    }
}
