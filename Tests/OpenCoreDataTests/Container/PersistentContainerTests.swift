import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `PersistentContainer` and `PersistentStoreDescription`, as Core Data's
/// `NSPersistentContainer` / `NSPersistentStoreDescription` behave.
@Suite struct PersistentContainerTests {
    /// A container that puts its stores in a folder of the test's choosing.
    final class FolderContainer: PersistentContainer, @unchecked Sendable {
        nonisolated(unsafe) static var folder = URL(fileURLWithPath: "/nonexistent")
        override class func defaultDirectoryURL() -> URL { folder }
    }

    // MARK: - Defaults

    /// Core Data: one SQLite description at defaultDirectoryURL()/NAME.sqlite, loaded
    /// synchronously, read-write, no configuration.
    @Test func theDefaultDescriptionIsOneSQLiteStoreInTheDefaultDirectory() {
        let container = PersistentContainer(name: "Notes", managedObjectModel: Models.notes())
        let descriptions = container.persistentStoreDescriptions
        #expect(descriptions.count == 1)
        let description = descriptions[0]
        #expect(description.type == .sqlite)
        #expect(description.url == PersistentContainer.defaultDirectoryURL().appendingPathComponent("Notes.sqlite"))
        #expect(description.configuration == nil)
        #expect(!description.shouldAddStoreAsynchronously)
        #expect(!description.isReadOnly)
        #expect(description.options.isEmpty)
        #expect(container.name == "Notes")
        #expect(container.persistentStoreCoordinator.managedObjectModel === container.managedObjectModel)
    }

    @Test func theDefaultDirectoryFollowsXDGThenHome() {
        let xdg = PersistentContainer.defaultDirectoryURL(environment: ["XDG_DATA_HOME": "/data/x", "HOME": "/home/u"], processName: "app")
        #expect(xdg.path == "/data/x/app")
        let home = PersistentContainer.defaultDirectoryURL(environment: ["HOME": "/home/u"], processName: "app")
        #expect(home.path == "/home/u/.local/share/app")
        // The XDG spec: an empty or relative XDG_DATA_HOME is ignored.
        let empty = PersistentContainer.defaultDirectoryURL(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u"], processName: "app")
        #expect(empty.path == "/home/u/.local/share/app")
        let relative = PersistentContainer.defaultDirectoryURL(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/u"], processName: "app")
        #expect(relative.path == "/home/u/.local/share/app")
        // No HOME: the user database's home folder.
        let noHome = PersistentContainer.defaultDirectoryURL(environment: [:], processName: "app")
        #expect(noHome.path.hasSuffix("/.local/share/app"))
        #expect(noHome.path.hasPrefix("/"))
    }

    /// The process's own environment and name are what the class method reads.
    @Test func theClassMethodReadsThisProcess() {
        let info = ProcessInfo.processInfo
        let expected = PersistentContainer.defaultDirectoryURL(environment: info.environment, processName: info.processName)
        #expect(PersistentContainer.defaultDirectoryURL() == expected)
        #expect(expected.lastPathComponent == info.processName)
    }

    /// A subclass's override decides the default store's folder, which loading creates.
    @Test func aSubclassOverridesTheDefaultDirectory() throws {
        let folder = TemporaryFolder()
        FolderContainer.folder = folder.url.appendingPathComponent("not/yet/there", isDirectory: true)
        let container = FolderContainer(name: "Notes", managedObjectModel: Models.notes())
        let url = try #require(container.persistentStoreDescriptions.first?.url)
        #expect(url == FolderContainer.folder.appendingPathComponent("Notes.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: FolderContainer.folder.path))
        let errors = container.loadCollectingErrors()
        #expect(errors.count == 1 && errors[0] == nil)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(container.persistentStoreCoordinator.persistentStores.first?.url == url)
    }

    // MARK: - Loading

    @Test(arguments: StoreKind.allCases)
    func loadingCallsTheCompletionOncePerDescriptionOnTheCallingThread(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: kind, folder: folder)
        let second = PersistentStoreDescription(url: folder.file("Second.sqlite"))
        second.type = kind.type
        container.persistentStoreDescriptions.append(second)
        let caller = currentThreadID()
        let calls = Collected<(PersistentStoreDescription, Bool, ObjectIdentifier)>()
        container.loadPersistentStores { description, error in calls.append((description, error == nil, currentThreadID())) }
        // Synchronous descriptions: every completion ran before loadPersistentStores returned.
        let made = calls.values
        #expect(made.count == 2)
        let inOrder = made.map(\.0).elementsEqual(container.persistentStoreDescriptions, by: ===)
        #expect(inOrder)
        #expect(made.allSatisfy { $0.1 && $0.2 == caller })
        #expect(container.persistentStoreCoordinator.persistentStores.map(\.type) == [kind.type, kind.type])
    }

    /// Core Data reports each description's failure to its completion and goes on.
    @Test func aFailingDescriptionDoesNotStopTheOthers() throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: .sqlite, folder: folder)
        let junk = try folder.write("this is not a database, just text that is long enough to have a header", to: "junk.sqlite")
        let bad = PersistentStoreDescription(url: junk)
        let noURL = PersistentStoreDescription()
        container.persistentStoreDescriptions = [bad, noURL, container.persistentStoreDescriptions[0]]
        let errors = container.loadCollectingErrors()
        #expect(errors.count == 3)
        #expect((errors[0] as? CoreDataError)?.code == .notAStore)
        #expect((errors[1] as? CoreDataError)?.code == .storeOpenFailed)
        #expect(errors[2] == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    /// With shouldAddStoreAsynchronously the caller is not blocked: the completion waits
    /// for a gate the test opens only after loadPersistentStores returned (a synchronous
    /// load would time out there), and runs on a background queue, not the caller's
    /// thread (Apple: "the store is added asynchronously on a background queue").
    @Test(arguments: StoreKind.allCases)
    func anAsynchronousDescriptionLoadsOnABackgroundQueue(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: kind, folder: folder)
        container.persistentStoreDescriptions[0].shouldAddStoreAsynchronously = true
        let gate = DispatchSemaphore(value: 0)
        let caller = currentThreadID()
        let calls = Collected<(opened: Bool, waited: Bool, thread: ObjectIdentifier, onMain: Bool)>()
        container.loadPersistentStores { _, error in
            let waited = gate.wait(timeout: .now() + 5) == .success
            calls.append((error == nil, waited, currentThreadID(), ManagedObjectContext.isOnMainQueue))
        }
        gate.signal()
        let made = calls.waitFor(1)
        #expect(made.count == 1)
        #expect(made.first?.opened == true)
        #expect(made.first?.waited == true)
        #expect(made.first?.thread != caller)
        #expect(made.first?.onMain == false)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    /// Several asynchronous descriptions load in order, each completion once, one failure
    /// leaving the others loaded.
    @Test func asynchronousDescriptionsLoadInOrder() throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: .sqlite, folder: folder)
        let urls = [folder.file("a.sqlite"), folder.url.appendingPathComponent("missing/b.sqlite"), folder.file("c.sqlite")]
        container.persistentStoreDescriptions = urls.map { url in
            let description = PersistentStoreDescription(url: url)
            description.shouldAddStoreAsynchronously = true
            return description
        }
        container.persistentStoreDescriptions[1].isReadOnly = true  // read-only and missing: an error
        let calls = Collected<(URL?, Bool)>()
        container.loadPersistentStores { description, error in calls.append((description.url, error == nil)) }
        let made = calls.waitFor(3)
        #expect(made.map(\.0) == urls)
        #expect(made.map(\.1) == [true, false, true])
        Thread.sleep(forTimeInterval: 0.05)
        #expect(calls.values.count == 3)
    }

    // MARK: - Options

    /// The description's options reach addPersistentStore as given, the conveniences
    /// included, and take effect.
    @Test(arguments: StoreKind.allCases)
    func optionsArePassedToTheStore(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: kind, folder: folder)
        let description = container.persistentStoreDescriptions[0]
        // Only SQLite stores keep history (the in-memory store refuses the option).
        if kind == .sqlite { description.setOption(true, forKey: PersistentHistoryTrackingKey) }
        description.setOption(true, forKey: PersistentStoreRemoteChangeNotificationPostOptionKey)
        description.timeout = 2
        description.setValue("DELETE", forPragmaNamed: "journal_mode")
        #expect(description.timeout == 2)
        #expect(description.sqlitePragmas["journal_mode"] as? String == "DELETE")
        #expect(container.loadCollectingErrors().count == 1)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.options[PersistentStoreOption.persistentHistoryTracking] as? Bool == (kind == .sqlite ? true : nil))
        #expect(store.options[PersistentStoreOption.remoteChangeNotificationPost] as? Bool == true)
        #expect(store.options[PersistentStoreOption.timeout] as? Double == 2)
        #expect((store.options[PersistentStoreOption.sqlitePragmas] as? [String: any Sendable])?["journal_mode"] as? String == "DELETE")
        if kind == .sqlite {
            // The pragma took effect: a rollback journal, so no -wal file beside the store.
            let context = container.newBackgroundContext()
            try context.performAndWait {
                _ = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
                try context.save()
            }
            #expect(!FileManager.default.fileExists(atPath: folder.file("Notes.sqlite").path + "-wal"))
        }
        description.setValue(nil, forPragmaNamed: "journal_mode")
        description.setOption(nil, forKey: PersistentHistoryTrackingKey)
        #expect(description.options[PersistentStoreOption.sqlitePragmas] == nil)
        #expect(description.options[PersistentStoreOption.persistentHistoryTracking] == nil)
    }

    /// An option the store refuses is that description's error: history on an in-memory
    /// store (only SQLite stores keep history, as in Core Data).
    @Test func anOptionTheStoreRefusesIsTheDescriptionsError() throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: .inMemory, folder: folder)
        container.persistentStoreDescriptions[0].setOption(true, forKey: PersistentHistoryTrackingKey)
        let errors = container.loadCollectingErrors()
        #expect(errors.count == 1)
        let error = try #require(errors.first as? CoreDataError)
        #expect(error.code == .storeOpenFailed)
        #expect(error.key == PersistentStoreOption.persistentHistoryTracking)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    /// isReadOnly opens the store read-only: a save fails and keeps the context's changes.
    @Test func aReadOnlyDescriptionRefusesSaves() throws {
        let folder = TemporaryFolder()
        let writer = PersistentContainer.testContainer(model: Models.notes(), kind: .sqlite, folder: folder)
        #expect(writer.loadCollectingErrors().allSatisfy { $0 == nil })
        let reader = PersistentContainer.testContainer(model: Models.notes(), kind: .sqlite, folder: folder)
        reader.persistentStoreDescriptions[0].isReadOnly = true
        #expect(reader.persistentStoreDescriptions[0].options[PersistentStoreOption.readOnly] as? Bool == true)
        #expect(reader.loadCollectingErrors().allSatisfy { $0 == nil })
        let context = reader.newBackgroundContext()
        let code = context.performAndWait { () -> CoreDataError.Code? in
            _ = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            do { try context.save(); return nil } catch let error as CoreDataError { return error.code } catch { return nil }
        }
        #expect(code == .storeReadOnly)
        #expect(context.performAndWait { context.hasChanges })
    }

    // MARK: - Contexts

    @Test(arguments: StoreKind.allCases)
    func theViewContextIsOneMainQueueContextOnTheCoordinator(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: kind, folder: folder)
        let view = container.viewContext
        #expect(view === container.viewContext)
        #expect(view.concurrencyType == .mainQueue)
        #expect(view.name == "viewContext")
        #expect(view.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(!view.automaticallyMergesChangesFromParent)
        let background = container.newBackgroundContext()
        #expect(background.concurrencyType == .privateQueue)
        #expect(background !== container.newBackgroundContext())
        #expect(background.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(!background.automaticallyMergesChangesFromParent)
    }

    /// With automaticallyMergesChangesFromParent, a background save shows in the view
    /// context (the merge runs on the main queue, which the test runner drives).
    @Test(arguments: StoreKind.allCases)
    func theViewContextMergesBackgroundSaves(kind: StoreKind) async throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: kind, folder: folder)
        #expect(container.loadCollectingErrors().allSatisfy { $0 == nil })
        container.viewContext.automaticallyMergesChangesFromParent = true
        let (held, id) = try await Self.readInViewThenChangeInBackground(container)
        let view = container.viewContext
        var seen: String?
        for _ in 0..<200 {
            seen = try await view.perform { held.values[0].value(forKey: "text") as? String }
            if seen == "second" { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(seen == "second")
        #expect(try await view.perform { view.registeredObject(for: id) === held.values[0] })
    }

    /// Without it the view context keeps what it read (Core Data's default).
    @Test func theViewContextDoesNotMergeByDefault() async throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: .inMemory, folder: folder)
        #expect(container.loadCollectingErrors().allSatisfy { $0 == nil })
        let (held, _) = try await Self.readInViewThenChangeInBackground(container)
        let view = container.viewContext
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await view.perform { held.values[0].value(forKey: "text") as? String } == "first")
    }

    /// Saves a note "first" in the background, reads it in the view context, then changes
    /// it to "second" in the background. Returns the view context's object, held so that
    /// the view context keeps it (and its values) registered, and its ID.
    static func readInViewThenChangeInBackground(_ container: PersistentContainer) async throws -> (Collected<ManagedObject>, ManagedObjectID) {
        let id = try await container.performBackgroundTask { context in
            let note = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("first", forKey: "text")
            try context.save()
            return note.objectID
        }
        let view = container.viewContext
        let held = Collected<ManagedObject>()
        let before = try await view.perform {
            let note = try view.existingObject(with: id)
            held.append(note)
            return note.value(forKey: "text") as? String
        }
        #expect(before == "first")
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id).setValue("second", forKey: "text")
            try context.save()
        }
        return (held, id)
    }

    /// Two `performBackgroundTask` blocks (the non-async form, which an async caller's
    /// overload resolution would not pick), each inserting and saving a note.
    static func insertTwoNotesInBackground(_ container: PersistentContainer) -> Collected<(ManagedObjectContext, ManagedObjectContext.ConcurrencyType, Bool)> {
        let contexts = Collected<(ManagedObjectContext, ManagedObjectContext.ConcurrencyType, Bool)>()
        for _ in 0..<2 {
            container.performBackgroundTask { context in
                let note = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue("saved", forKey: "text")
                try? context.save()
                contexts.append((context, context.concurrencyType, ManagedObjectContext.isOnMainQueue))
            }
        }
        return contexts
    }

    /// performBackgroundTask runs each block on a new private-queue context off the
    /// caller's thread; the async form returns the block's value or rethrows its error.
    @Test(arguments: StoreKind.allCases)
    func performBackgroundTaskRunsOnANewPrivateContext(kind: StoreKind) async throws {
        let folder = TemporaryFolder()
        let container = PersistentContainer.testContainer(model: Models.notes(), kind: kind, folder: folder)
        #expect(container.loadCollectingErrors().allSatisfy { $0 == nil })
        let ran = Self.insertTwoNotesInBackground(container).waitFor(2)
        #expect(ran.count == 2)
        #expect(ran[0].0 !== ran[1].0)
        #expect(ran.allSatisfy { $0.1 == .privateQueue && !$0.2 })
        let count = try await container.performBackgroundTask { context in
            try context.count(for: FetchRequest<ManagedObject>(entityName: "Note"))
        }
        #expect(count == 2)
        await #expect(throws: CoreDataError.self) {
            try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest<ManagedObject>(entityName: "NoSuchEntity")).count
            }
        }
    }
}
