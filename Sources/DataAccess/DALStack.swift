import Dispatch
import Foundation
import OpenCoreData

/// One generation of a `DALService`'s contexts (`nuke()` builds the next):
///
/// ```
///        root (private queue) ── coordinator ── store
///        ▲                ▲
///   main (main queue)   scratch (private queue, one per write, or one shared)
/// ```
///
/// Writes save scratch → root → disk; each save of the root queues the merge of what it
/// saved into the main context, which reads. Nothing here ever waits on the main queue.
final class DALStack: @unchecked Sendable {
    // @unchecked Sendable: the contexts confine themselves to their queues; `pendingMerges`
    // and `loadError` are under `lock`; the rest is immutable after init.

    let coordinator: PersistentStoreCoordinator
    let root: ManagedObjectContext
    let main: ManagedObjectContext
    /// The one scratch context all writes share when concurrent writes are off.
    let sharedScratch: ManagedObjectContext?
    /// The store's location (nil in memory).
    let storeURL: URL?
    let storeType: PersistentStoreType

    private let lock = NSLock()
    /// The root's did-save-object-IDs notifications not yet merged into the main context,
    /// oldest first.
    private var pendingMerges: [Notification] = []
    private var loadError: (any Error)?
    /// Left once the store is added (or failed to be).
    private let loading = DispatchGroup()
    private var saveObserver: (any NSObjectProtocol)?

    init(model: ManagedObjectModel, storeType: PersistentStoreType, storeURL: URL?, sharesScratch: Bool) {
        self.storeType = storeType
        self.storeURL = storeURL
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        root = ManagedObjectContext(concurrencyType: .privateQueue)
        root.name = "DataAccess.root"
        root.persistentStoreCoordinator = coordinator
        main = ManagedObjectContext(concurrencyType: .mainQueue)
        main.name = "DataAccess.main"
        main.parent = root
        sharedScratch = sharesScratch ? Self.scratch(of: root) : nil
        loading.enter()
        saveObserver = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification, object: root, queue: nil
        ) { [weak self] notification in
            self?.rootDidSave(notification)
        }
    }

    deinit {
        if let saveObserver { NotificationCenter.default.removeObserver(saveObserver) }
    }

    /// A new scratch context for one write.
    func makeScratch() -> ManagedObjectContext { sharedScratch ?? Self.scratch(of: root) }

    private static func scratch(of root: ManagedObjectContext) -> ManagedObjectContext {
        let scratch = ManagedObjectContext(concurrencyType: .privateQueue)
        scratch.name = "DataAccess.scratch"
        scratch.parent = root
        return scratch
    }

    // MARK: - Loading the store

    /// Adds the store, on the root's queue: anything the root does after waits for it.
    /// Synchronous: returns when the store is added; otherwise returns at once and calls
    /// `completion` (on the root's queue) when it is.
    func loadStore(asynchronously: Bool, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let add: @Sendable () -> Void = { [self] in
            var failure: (any Error)?
            do { try coordinator.addPersistentStore(type: storeType, at: storeURL, options: nil) } catch { failure = error }
            lock.withLock { loadError = failure }
            // Before anything waiting for the store goes on, so its error is reported first.
            completion(failure)
            loading.leave()
        }
        if asynchronously { root.perform(add) } else { root.performAndWait(add) }
    }

    /// Waits until the store is added; throws the error that kept it from being added.
    func waitUntilLoaded() throws {
        loading.wait()
        if let error = lock.withLock({ loadError }) { throw error }
    }

    // MARK: - Merging the root's saves into the main context

    /// Called on the root's queue during each save of the root: records what it saved and
    /// asks the main queue to merge it (never waiting for that).
    private func rootDidSave(_ notification: Notification) {
        lock.withLock { pendingMerges.append(notification) }
        DispatchQueue.main.async { [weak self] in self?.mergePendingSaves() }
    }

    /// Merges every recorded save of the root into the main context, in order. Runs where
    /// the main context may be used (see `MainQueue.mayUseMainContext`): before each read,
    /// and from the block each save queued on the main queue.
    func mergePendingSaves() {
        let saves: [Notification] = lock.withLock {
            defer { pendingMerges.removeAll() }
            return pendingMerges
        }
        for save in saves { main.mergeChanges(fromContextDidSave: save) }
    }
}
