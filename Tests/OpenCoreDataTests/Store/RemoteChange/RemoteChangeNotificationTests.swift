import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `storeRemoteChangeNotification` within one process: every commit to a watched store —
/// by its own coordinator (apps filter their own transactions by author, as Apple's
/// samples do), another coordinator, a batch request — is posted within the bound, on the
/// coordinator's queue, with Core Data's `userInfo` keys; nothing runs with the option off,
/// and removing the store or releasing the coordinator stops the watcher and closes its
/// descriptors. (Across processes: `RemoteChangeProcessTests`.)
@Suite(.serialized) struct RemoteChangeNotificationTests {
    /// Core Data posts within a bounded delay: ours is 1 s at most (docs/remote-change-notifications.md).
    static let bound: TimeInterval = 1

    static let postingOptions: [String: any Sendable] = [PersistentStoreOption.remoteChangeNotificationPost: true]

    /// A coordinator on `url` (an in-memory store for `.inMemory`) and a context on it.
    static func stack(_ kind: StoreKind, at url: URL?, options: [String: any Sendable]? = postingOptions) throws -> (PersistentStoreCoordinator, ManagedObjectContext) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TortureModel.make())
        try coordinator.addPersistentStore(type: kind.type, at: kind == .sqlite ? url : nil, options: options)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, context)
    }

    static func saveItem(_ title: String, in context: ManagedObjectContext) throws {
        try context.performAndWait {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(title, forKey: "title")
            try context.save()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func ownSaveIsPostedWithTheStoreURLAndIdentifierOnTheCoordinatorsQueue(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(kind, at: folder.file())
        let recorder = RemoteChangeRecorder(coordinator)
        let store = try #require(coordinator.persistentStores.first)
        #expect(coordinator.remoteChangeDetection == [kind == .sqlite ? "fileEvents" : "ownWrites"])

        let start = Date()
        try Self.saveItem("milk", in: context)
        let note = try #require(recorder.first(after: start, timeout: Self.bound), "no notification within \(Self.bound) s of the save")
        #expect(note.userInfo[StoreUUIDKey] as? String == store.identifier)
        #expect(note.userInfo[PersistentStoreURLKey] as? URL == (kind == .sqlite ? folder.file() : nil))
        // No history tracking on this store: no token (Core Data leaves the key out too).
        #expect(note.userInfo[PersistentHistoryTokenKey] == nil)
        #expect(note.onCoordinatorsQueue)
        #expect(!note.onMainThread)
    }

    @Test func anotherCoordinatorsSaveInThisProcessIsPosted() throws {
        let folder = TemporaryFolder()
        let (watched, _) = try Self.stack(.sqlite, at: folder.file())
        let (writer, writerContext) = try Self.stack(.sqlite, at: folder.file(), options: nil)
        let recorder = RemoteChangeRecorder(watched)
        let writerRecorder = RemoteChangeRecorder(writer)

        for round in 1...3 {
            let start = Date()
            try Self.saveItem("item \(round)", in: writerContext)
            let note = recorder.first(after: start, timeout: Self.bound)
            #expect(note != nil, "round \(round): no notification within \(Self.bound) s")
            if let note { print("RemoteChangeNotificationTests: another coordinator's save posted after \(Int(note.time.timeIntervalSince(start) * 1000)) ms") }
        }
        #expect(writerRecorder.all.isEmpty, "a coordinator without the option posted")
    }

    @Test(arguments: StoreKind.allCases)
    func batchRequestsArePosted(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(kind, at: folder.file())
        try Self.saveItem("one", in: context)
        let recorder = RemoteChangeRecorder(coordinator)
        // A batch request runs in the coordinator's store for SQLite and in-memory alike;
        // for SQLite, another coordinator's would be seen the same way (the file changes).
        let update = BatchUpdateRequest(entityName: "Item")
        update.propertiesToUpdate = ["group": "batched"]
        var start = Date()
        _ = try context.performAndWait { try context.execute(update) }
        #expect(recorder.first(after: start, timeout: Self.bound) != nil, "batch update not posted")

        start = Date()
        let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item"))
        _ = try context.performAndWait { try context.execute(delete) }
        #expect(recorder.first(after: start, timeout: Self.bound) != nil, "batch delete not posted")
    }

    @Test(arguments: StoreKind.allCases)
    func optionOffStartsNoWatcherAndPostsNothing(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try Self.stack(kind, at: folder.file(), options: [PersistentStoreOption.remoteChangeNotificationPost: false])
        let recorder = RemoteChangeRecorder(coordinator)
        #expect(coordinator.remoteChangeDetection.isEmpty)
        #expect(FolderDescriptors.count(folder.url).inotifyWatches == 0)
        let start = Date()
        try Self.saveItem("milk", in: context)
        #expect(recorder.arrivals(after: start, waiting: 0.3).isEmpty)
    }

    /// With history tracking the notification carries the store's newest history token:
    /// after a burst of another coordinator's saves, the one posted after the last commit
    /// holds the token of the last transaction.
    @Test func theTokenIsTheNewestTransactionsAfterABurst() throws {
        let folder = TemporaryFolder()
        let tracking: [String: any Sendable] = [PersistentStoreOption.persistentHistoryTracking: true]
        let (watched, watchedContext) = try Self.stack(.sqlite, at: folder.file(), options: tracking.merging(Self.postingOptions) { $1 })
        let (_, writerContext) = try Self.stack(.sqlite, at: folder.file(), options: tracking)
        let recorder = RemoteChangeRecorder(watched)
        for index in 0..<5 { try Self.saveItem("burst \(index)", in: writerContext) }
        let lastCommit = Date()
        let note = try #require(recorder.first(after: lastCommit, timeout: Self.bound))
        let newest = try watchedContext.performAndWait {
            try watchedContext.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)).transactions.last?.token
        }
        #expect(newest != nil)
        #expect(note.userInfo[PersistentHistoryTokenKey] as? PersistentHistoryToken == newest)
    }

    /// A burst of commits: at least one notification, and one after the last commit (it
    /// carries the newest token), however many the burst was folded into.
    @Test func aBurstIsPostedAndItsLastCommitIsCovered() throws {
        let folder = TemporaryFolder()
        let (watched, _) = try Self.stack(.sqlite, at: folder.file())
        let (_, writerContext) = try Self.stack(.sqlite, at: folder.file(), options: nil)
        let recorder = RemoteChangeRecorder(watched)
        let start = Date()
        for index in 0..<20 { try Self.saveItem("burst \(index)", in: writerContext) }
        let lastCommit = Date()
        let after = recorder.first(after: lastCommit, timeout: Self.bound)
        let notes = recorder.arrivals(after: start, waiting: 0.1)
        print("RemoteChangeNotificationTests: 20 saves in \(Int(lastCommit.timeIntervalSince(start) * 1000)) ms posted \(notes.count) notification(s)")
        #expect(!notes.isEmpty)
        #expect(after != nil, "nothing posted after the burst's last commit")
    }

    /// What a coordinator without the option leaves open in `folder` once its store is
    /// removed, while `writer` keeps the file open: SQLite's unix VFS defers closing a
    /// file's descriptor while another connection of the process holds locks on it, and
    /// reuses it for the next connection (https://sqlite.org/src/file/src/os_unix.c,
    /// `unixInodeInfo.pUnused`). The watcher must leave no more than that.
    static func descriptorsLeftWithoutWatcher(_ folder: TemporaryFolder) throws -> FolderDescriptors.Count {
        let (plain, _) = try stack(.sqlite, at: folder.file(), options: nil)
        plain.persistentStores.forEach(plain.remove)
        return FolderDescriptors.count(folder.url)
    }

    @Test func removingTheStoreStopsTheWatcherAndClosesItsDescriptors() throws {
        let folder = TemporaryFolder()
        let (_, writerContext) = try Self.stack(.sqlite, at: folder.file(), options: nil)
        let baseline = try Self.descriptorsLeftWithoutWatcher(folder)
        for cycle in 1...10 {
            let (coordinator, _) = try Self.stack(.sqlite, at: folder.file())
            let recorder = RemoteChangeRecorder(coordinator)
            let watching = FolderDescriptors.count(folder.url)
            #expect(watching.inotifyWatches == 1, "cycle \(cycle): \(watching)")
            // A commit just before the removal: whatever its checks were doing, nothing is
            // posted once remove(_:) returned.
            try Self.saveItem("before removal \(cycle)", in: writerContext)
            coordinator.persistentStores.forEach(coordinator.remove)
            let removed = Date()
            #expect(coordinator.remoteChangeDetection.isEmpty)
            let left = FolderDescriptors.count(folder.url)
            #expect(left == baseline, "cycle \(cycle): \(left) open after removal, \(baseline) without a watcher")
            try Self.saveItem("after removal \(cycle)", in: writerContext)
            #expect(recorder.arrivals(after: removed, waiting: cycle == 1 ? 0.3 : 0).isEmpty, "cycle \(cycle): posted after removal")
        }
    }

    @Test func releasingTheCoordinatorStopsTheWatcherAndClosesItsDescriptors() throws {
        let folder = TemporaryFolder()
        let (_, writerContext) = try Self.stack(.sqlite, at: folder.file(), options: nil)
        let baseline = try Self.descriptorsLeftWithoutWatcher(folder)
        weak var released: PersistentStoreCoordinator?
        for _ in 1...5 {
            let (coordinator, context) = try Self.stack(.sqlite, at: folder.file())
            released = coordinator
            try Self.saveItem("while watched", in: context)
            // The previous coordinator's watch closes on its queue, just after its release.
            let watching = FolderDescriptors.settle(folder.url) { $0.inotifyWatches == 1 }
            #expect(watching.inotifyWatches == 1, "\(watching)")
        }
        #expect(released == nil, "the watcher keeps its coordinator alive")
        let left = FolderDescriptors.settle(folder.url) { $0 == baseline }
        #expect(left == baseline, "\(left) open after 5 coordinators were released, \(baseline) without a watcher")
        try Self.saveItem("after release", in: writerContext)
    }

    /// Where inotify is missing (macOS) or fails, the watcher polls `PRAGMA data_version`.
    @Test func pollingFallbackPostsAnotherCoordinatorsSave() throws {
        let folder = TemporaryFolder()
        var options = Self.postingOptions
        options[PersistentStoreOption.remoteChangePolling] = true
        let (watched, _) = try Self.stack(.sqlite, at: folder.file(), options: options)
        #expect(watched.remoteChangeDetection == ["polling"])
        #expect(FolderDescriptors.count(folder.url).inotifyWatches == 0)
        let (_, writerContext) = try Self.stack(.sqlite, at: folder.file(), options: nil)
        let recorder = RemoteChangeRecorder(watched)
        let start = Date()
        try Self.saveItem("polled", in: writerContext)
        #expect(recorder.first(after: start, timeout: Self.bound) != nil)
    }

    @Test(arguments: StoreKind.allCases, [PersistentStoreOption.remoteChangeNotificationPost, PersistentStoreOption.remoteChangePolling])
    func aNonBooleanOptionIsRefusedBeforeTheStoreIsCreated(kind: StoreKind, key: String) throws {
        let folder = TemporaryFolder()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: TortureModel.make())
        var options: [String: any Sendable] = [PersistentStoreOption.remoteChangeNotificationPost: true]
        options[key] = "yes"
        let error = caughtError {
            try coordinator.addPersistentStore(type: kind.type, at: folder.file(), options: options)
        }
        #expect(error?.code == .storeOpenFailed)
        #expect(error?.key == key)
        #expect(!FileManager.default.fileExists(atPath: folder.file().path))
        #expect(coordinator.persistentStores.isEmpty)
        #expect(coordinator.remoteChangeDetection.isEmpty)
    }
}
