import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `ManagedDocument`, UIKit's `UIManagedDocument` for Linux: a package holding its store,
/// opened, saved, autosaved and closed, its state and its notification. The test runner
/// drives the main queue, where the document's context and completions run.
@Suite struct ManagedDocumentTests {
    /// Records the errors the document reports.
    final class RecordingDocument: ManagedDocument, @unchecked Sendable {
        let errors = Collected<CoreDataError.Code?>()
        override func handleError(_ error: any Error, userInteractionPermitted: Bool) {
            errors.append((error as? CoreDataError)?.code)
        }
    }

    /// A document whose store lives in memory.
    final class InMemoryDocument: ManagedDocument, @unchecked Sendable {
        override func persistentStoreType(forFileType fileType: String) -> PersistentStoreType { .inMemory }
    }

    /// Cards with two attributes, so two editors can change different properties.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [EntityDescription(name: "Card", properties: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "body", type: .string),
        ])])
    }

    /// Sets `key` of the document's only card, on its context's queue.
    static func editCard(_ document: ManagedDocument, _ key: String, _ value: String) async throws {
        let context = document.managedObjectContext
        try await context.perform {
            let card = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Card")).first)
            card.setValue(value, forKey: key)
        }
    }

    static func insertCard(_ document: ManagedDocument, title: String) async throws -> ManagedObjectID {
        let context = document.managedObjectContext
        return try await context.perform {
            let card = EntityDescription.insertNewObject(forEntityName: "Card", into: context)
            card.setValue(title, forKey: "title")
            return card.objectID
        }
    }

    /// A document that is not told of other editors' saves (remote change notifications
    /// off), so that its saves meet them as conflicts, as when a save comes before the
    /// notification.
    static func unnotifiedDocument(at url: URL) -> RecordingDocument {
        let document = RecordingDocument(fileURL: url, managedObjectModel: model())
        document.autosaveDelay = 0
        document.persistentStoreOptions = [PersistentStoreOption.remoteChangeNotificationPost: false]
        return document
    }

    /// The titles in the document's store, read by a fresh context on its coordinator.
    static func storedTitles(_ document: ManagedDocument) throws -> [String] {
        let reader = ManagedObjectContext(concurrencyType: .privateQueue)
        reader.persistentStoreCoordinator = document.persistentStoreCoordinator
        return try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Card")).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
    }

    /// The titles a context sees.
    static func titles(in document: ManagedDocument) async throws -> [String] {
        let context = document.managedObjectContext
        return try await context.perform {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Card")).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
    }

    // MARK: - The package

    /// UIManagedDocument keeps its store at <document>/StoreContent/persistentStore.
    @Test func creatingMakesAPackageHoldingTheStore() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Trip.notes")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(document.documentState == .closed)
        #expect(await document.save(to: url, for: .forCreating))
        #expect(document.documentState == .normal)
        let store = url.appendingPathComponent("StoreContent/persistentStore")
        #expect(FileManager.default.fileExists(atPath: store.path))
        #expect(document.storeURL(forDocumentAt: url) == store)
        #expect(document.persistentStoreCoordinator.persistentStores.first?.url == store)
        #expect(document.errors.values.isEmpty)
    }

    /// The document turns on history tracking and remote change notifications, keeping
    /// the options it was given.
    @Test func theStoreGetsTheDocumentsOptionsPlusHistoryAndRemoteChanges() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        document.persistentStoreOptions = [PersistentStoreOption.timeout: 3.0]
        #expect(await document.save(to: url, for: .forCreating))
        let options = try #require(document.persistentStoreCoordinator.persistentStores.first?.options)
        #expect(options[PersistentStoreOption.timeout] as? Double == 3)
        #expect(options[PersistentStoreOption.persistentHistoryTracking] as? Bool == true)
        #expect(options[PersistentStoreOption.remoteChangeNotificationPost] as? Bool == true)
    }

    @Test func creatingWhereADocumentExistsFails() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        #expect(await RecordingDocument(fileURL: url, managedObjectModel: Self.model()).save(to: url, for: .forCreating))
        let second = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(await second.save(to: url, for: .forCreating) == false)
        #expect(second.documentState == .closed)
        #expect(second.errors.values == [.storeOperationFailed])
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("StoreContent/persistentStore").path))
    }

    @Test func openingWhereNoDocumentIsFails() async throws {
        let folder = TemporaryFolder()
        let document = RecordingDocument(fileURL: folder.url.appendingPathComponent("Missing"), managedObjectModel: Self.model())
        #expect(await document.open() == false)
        #expect(document.documentState == .closed)
        #expect(document.errors.values == [.storeOpenFailed])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Missing").path))
    }

    @Test func savingElsewhereOrWhileClosedFails() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(await document.save(to: url, for: .forOverwriting) == false)
        #expect(await document.save(to: folder.url.appendingPathComponent("Other"), for: .forCreating) == false)
        #expect(document.errors.values == [.storeOperationFailed, .storeOperationFailed])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Other").path))
    }

    // MARK: - Saving

    /// A save goes main context → private writer → store, on both store kinds.
    @Test(arguments: StoreKind.allCases)
    func savingWritesThroughThePrivateParent(kind: StoreKind) async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document: ManagedDocument = kind == .sqlite
            ? RecordingDocument(fileURL: url, managedObjectModel: Self.model())
            : InMemoryDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(document.managedObjectContext.concurrencyType == .mainQueue)
        #expect(document.managedObjectContext.parent === document.writer)
        #expect(document.writer.concurrencyType == .privateQueue)
        #expect(await document.save(to: url, for: .forCreating))
        let store = try #require(document.persistentStoreCoordinator.persistentStores.first)
        #expect(store.type == kind.type)
        #expect(store.options[PersistentStoreOption.persistentHistoryTracking] as? Bool == (kind == .sqlite ? true : nil))
        _ = try await Self.insertCard(document, title: "one")
        #expect(try Self.storedTitles(document).isEmpty)
        #expect(await document.save(to: url, for: .forOverwriting))
        #expect(try Self.storedTitles(document) == ["one"])
        #expect(try await document.managedObjectContext.perform { !document.hasUnsavedChanges })
    }

    /// Closing saves, removes the store and resets the contexts; reopening reads it back.
    @Test func closingSavesAndReopeningReadsItBack() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        document.autosaveDelay = 0
        #expect(await document.save(to: url, for: .forCreating))
        _ = try await Self.insertCard(document, title: "kept")
        #expect(await document.close())
        #expect(document.documentState == .closed)
        #expect(document.persistentStoreCoordinator.persistentStores.isEmpty)
        #expect(try await document.managedObjectContext.perform { document.managedObjectContext.registeredObjects.isEmpty })
        let reopened = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(await reopened.open())
        #expect(reopened.documentState == .normal)
        #expect(try await Self.titles(in: reopened) == ["kept"])
        // The first document opens again too.
        #expect(await document.open())
        #expect(try await Self.titles(in: document) == ["kept"])
    }

    /// Each state change posts stateChangedNotification on the main queue.
    @Test func stateChangesPostTheNotification() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        let seen = Collected<(ManagedDocument.State, Bool)>()
        let observer = NotificationCenter.default.addObserver(forName: ManagedDocument.stateChangedNotification, object: document, queue: nil) { note in
            let posted = note.object as? ManagedDocument
            seen.append((posted?.documentState ?? .closed, ManagedObjectContext.isOnMainQueue || Thread.isMainThread))
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        #expect(await document.save(to: url, for: .forCreating))
        #expect(await document.close())
        #expect(seen.values.map(\.0) == [.normal, .closed])
        #expect(seen.values.allSatisfy { $0.1 })
    }

    /// A read-only store disables editing: a save fails and keeps the changes.
    @Test func aReadOnlyDocumentHasEditingDisabled() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        #expect(await RecordingDocument(fileURL: url, managedObjectModel: Self.model()).save(to: url, for: .forCreating))
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        document.autosaveDelay = 0
        document.persistentStoreOptions = [PersistentStoreOption.readOnly: true]
        #expect(await document.open())
        #expect(document.documentState == .editingDisabled)
        _ = try await Self.insertCard(document, title: "refused")
        #expect(await document.save(to: url, for: .forOverwriting) == false)
        #expect(document.documentState == [.editingDisabled, .savingError])
        #expect(document.errors.values == [.storeReadOnly])
        #expect(try await document.managedObjectContext.perform { document.hasUnsavedChanges })
        #expect(try Self.storedTitles(document).isEmpty)
        // Closing must save, so the document stays open with its changes.
        #expect(await document.close() == false)
        #expect(!document.documentState.contains(.closed))
    }

    // MARK: - Conflicts

    /// Two documents on one package (two coordinators, as two processes would have) edit
    /// one card. Under `.error` the second save fails with .savingError and .inConflict
    /// and keeps its change; under a merging policy it goes through.
    @Test func anUnresolvedConflictSetsInConflictAndKeepsTheChanges() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let first = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        first.autosaveDelay = 0
        #expect(await first.save(to: url, for: .forCreating))
        _ = try await Self.insertCard(first, title: "card")
        #expect(await first.save(to: url, for: .forOverwriting))
        let second = Self.unnotifiedDocument(at: url)
        #expect(await second.open())
        let secondContext = second.managedObjectContext
        secondContext.mergePolicy = .error
        try await Self.editCard(second, "title", "second")
        try await Self.editCard(first, "title", "first")
        #expect(await first.save(to: url, for: .forOverwriting))
        #expect(await second.save(to: url, for: .forOverwriting) == false)
        #expect(second.documentState == [.savingError, .inConflict])
        #expect(second.errors.values == [.mergeConflict])
        #expect(try await secondContext.perform { second.hasUnsavedChanges })
        #expect(try Self.storedTitles(second) == ["first"])
        // More edits after the failed save join the kept ones.
        try await Self.editCard(second, "body", "more")
        secondContext.mergePolicy = .mergeByPropertyObjectTrump
        #expect(await second.save(to: url, for: .forOverwriting))
        #expect(second.documentState == .normal)
        #expect(try Self.storedTitles(first) == ["second"])
        #expect(try await Self.titles(in: second) == ["second"])
        let reader = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(await reader.open())
        let readerContext = reader.managedObjectContext
        let body = try await readerContext.perform {
            try readerContext.fetch(FetchRequest<ManagedObject>(entityName: "Card")).first?.value(forKey: "body") as? String
        }
        #expect(body == "more")
    }

    /// The default policy, merge by property with the document's edits winning: edits of
    /// different properties of one card by two documents are both kept.
    @Test func theDefaultPolicyKeepsBothDocumentsEditsOfDifferentProperties() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let first = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        first.autosaveDelay = 0
        #expect(first.managedObjectContext.mergePolicy.mergeType == .mergeByPropertyObjectTrumpMergePolicyType)
        #expect(await first.save(to: url, for: .forCreating))
        _ = try await Self.insertCard(first, title: "card")
        #expect(await first.save(to: url, for: .forOverwriting))
        let second = Self.unnotifiedDocument(at: url)
        #expect(await second.open())
        try await Self.editCard(second, "body", "from second")
        try await Self.editCard(first, "title", "renamed")
        #expect(await first.save(to: url, for: .forOverwriting))
        #expect(await second.save(to: url, for: .forOverwriting))
        #expect(second.documentState == .normal)
        let reader = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        #expect(await reader.open())
        let readerContext = reader.managedObjectContext
        let card = try await readerContext.perform { () -> [String?] in
            let card = try #require(try readerContext.fetch(FetchRequest<ManagedObject>(entityName: "Card")).first)
            return [card.value(forKey: "title") as? String, card.value(forKey: "body") as? String]
        }
        #expect(card == ["renamed", "from second"])
    }

    // MARK: - Autosave

    /// A burst of edits is saved once, after the delay that follows the last one. Timing
    /// under load varies, so the test measures the gaps between its edits (taken on the
    /// main queue, where the document schedules its timer): edits closer than the delay
    /// are one burst and one save, and no save comes sooner than the delay after an edit.
    @Test func autosaveDebouncesABurstOfEdits() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        let delay = 0.25
        document.autosaveDelay = delay
        #expect(await document.save(to: url, for: .forCreating))
        let saves = Collected<Date>()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: document.writer, queue: nil) { _ in
            saves.append(Date())
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let edits = Collected<Date>()
        let context = document.managedObjectContext
        for index in 0..<5 {
            try await context.perform {
                EntityDescription.insertNewObject(forEntityName: "Card", into: context).setValue("card \(index)", forKey: "title")
                edits.append(Date())
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let deadline = Date().addingTimeInterval(10)
        while try Self.storedTitles(document).count < 5, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(Int(delay * 1000) + 100))
        let times = edits.values, saved = saves.values
        let gaps = zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }
        // Bursts: runs of edits closer than the delay (with a margin either way).
        let mostBursts = 1 + gaps.filter { $0 >= delay * 0.9 }.count
        let fewestBursts = 1 + gaps.filter { $0 > delay * 2 }.count
        #expect(saved.count >= fewestBursts && saved.count <= mostBursts, "saves \(saved.count), gaps \(gaps)")
        for save in saved {
            let lastEditBefore = try #require(times.last { $0 <= save })
            #expect(save.timeIntervalSince(lastEditBefore) >= delay * 0.9, "a save \(save.timeIntervalSince(lastEditBefore)) s after an edit")
        }
        #expect(try Self.storedTitles(document).count == 5)
        #expect(document.documentState == .normal)
    }

    @Test func aZeroDelayTurnsAutosaveOff() async throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Doc")
        let document = RecordingDocument(fileURL: url, managedObjectModel: Self.model())
        document.autosaveDelay = 0
        #expect(await document.save(to: url, for: .forCreating))
        _ = try await Self.insertCard(document, title: "unsaved")
        try await Task.sleep(for: .milliseconds(200))
        #expect(try Self.storedTitles(document).isEmpty)
        #expect(try await document.managedObjectContext.perform { document.hasUnsavedChanges })
    }

    /// The model-name initializer finds the model as PersistentContainer does.
    @Test(.requiresCorpus) func theModelCanBeFoundInABundle() throws {
        let folder = TemporaryFolder()
        let bundle = try PersistentContainerBundleTests.bundle(in: folder, [(PersistentContainerBundleTests.skopelos, "DataModel.xcdatamodeld")])
        let document = try ManagedDocument(fileURL: folder.url.appendingPathComponent("Doc"), modelNamed: "DataModel", bundle: bundle)
        #expect(document.managedObjectModel.entities.map(\.name).sorted() == ["Pet", "User"])
        #expect(throws: CoreDataError.self) { try ManagedDocument(fileURL: folder.url, modelNamed: "Nope", bundle: bundle) }
    }
}
