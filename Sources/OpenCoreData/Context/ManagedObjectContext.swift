import Foundation

/// A scratch pad of managed objects: fetch, change, insert and delete them, then `save()`.
///
/// A context belongs to a queue. A `.privateQueue` context is used through `perform`,
/// `performAndWait` or `async perform`; a `.mainQueue` context may be used directly from
/// the main thread, as in Core Data. Each object exists once per context (an identity
/// map); objects without pending changes are held weakly, so walking a large store does
/// not keep it all in memory.
public final class ManagedObjectContext: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is confined to the context's queue; other
    // threads reach it only through perform/performAndWait, which run on that queue.

    /// Which queue a context's work runs on.
    public enum ConcurrencyType: Sendable {
        /// The main queue; usable directly from the main thread.
        case mainQueue
        /// A private serial queue of the context's own.
        case privateQueue
    }

    public let concurrencyType: ConcurrencyType
    /// The coordinator whose stores the context fetches from and saves to; for a child
    /// context (see `parent`), the coordinator of its root context, as in Core Data.
    /// Setting it on a context that has a parent is a programmer error.
    public var persistentStoreCoordinator: PersistentStoreCoordinator? {
        get { coordinator ?? parent?.persistentStoreCoordinator }
        set {
            setCoordinator(newValue)
            if mergesSavesAutomatically { updateAutomaticMerging() }
        }
    }
    /// The coordinator set on this context itself (nil for a child context).
    var coordinator: PersistentStoreCoordinator?
    /// The context this one fetches through and saves into (Core Data's `parent`): a
    /// child context's `save()` pushes its changes into the parent without writing the
    /// store. Set it before the context is used, instead of `persistentStoreCoordinator`.
    public var parent: ManagedObjectContext? {
        didSet { didSetParent(oldValue) }
    }
    /// A name for debugging, also recorded as `contextName` in persistent history.
    public var name: String?
    /// The author recorded in persistent history for this context's saves to the store
    /// and its batch requests (`PersistentHistoryTransaction.author`); a child context's
    /// saves are recorded when its parent saves, under the parent's author.
    public var transactionAuthor: String?
    /// Whether a fetch includes objects inserted, changed or deleted in this context but
    /// not yet saved, by default (each request can override it).
    public var defaultIncludesPendingChanges = true
    /// How `save()` resolves rows changed in the store since they were read, and
    /// uniqueness constraints it would break (see `MergePolicy`); `.error` by default.
    public var mergePolicy: MergePolicy = .error
    /// How old, in seconds, the coordinator's cached row of an object may be when a fault
    /// of it fires; older rows are read again from the store. Negative (the default): any
    /// age; 0: always read the store. Objects already loaded are not affected.
    public var stalenessInterval: TimeInterval = -1

    /// The last store error met while firing a fault or loading a relationship: those
    /// accessors cannot throw, so the object reads as deleted (or the relationship as
    /// empty) and the error is kept here.
    public internal(set) var lastFaultError: CoreDataError?

    let queue: DispatchQueue
    /// Marks the main queue, which the main actor also runs on.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
    private let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    // MARK: - Object graph state (queue-confined)
    //
    // `@exclusivity(unchecked)`: only touched on the context's queue, never overlappingly.

    /// The identity map: every registered object by ID, unretained (objects unregister
    /// themselves in `deinit`). Keyed by the 16-byte ID itself, whose store number and
    /// entity serial keep apart rows of several stores and models sharing a primary key.
    @exclusivity(unchecked) var registry: [ManagedObjectID: Unmanaged<ManagedObject>] = [:]
    /// Objects that may have pending changes, retained, in the order of their first
    /// change (so inserted objects are in insertion order). `insertedObjects`,
    /// `updatedObjects` and `deletedObjects` are read from their state; objects that
    /// turned clean or left are dropped by `compactPendingObjects()`.
    @exclusivity(unchecked) var pendingObjects: [ManagedObject] = []
    /// `pendingObjects`' length at which the next event end drops its clean objects.
    @exclusivity(unchecked) var compactionThreshold = 4096
    /// The open event's number (see `ManagedObject.eventNumber`); never 0.
    @exclusivity(unchecked) var eventNumber: UInt32 = 1
    /// The open event's record of touched objects.
    @exclusivity(unchecked) var ledger = ChangeLedger()
    /// Whether an end of the open event is already scheduled on the queue.
    @exclusivity(unchecked) var isEventEndScheduled = false
    /// Who receives each closed event's `ChangeSet` (undo, notifications, controllers).
    @exclusivity(unchecked) var changeConsumers: [(id: Int, receive: (ChangeSet) -> Void)] = []
    @exclusivity(unchecked) var nextConsumerID = 0
    /// Who is told when objects get permanent IDs (see `addPermanentIDConsumer(_:)`).
    @exclusivity(unchecked) var permanentIDConsumers: [(id: Int, receive: ([ManagedObject]) -> Void)] = []
    /// Deleted objects whose delete rules have not run yet.
    @exclusivity(unchecked) var pendingDeletes: [ManagedObject] = []
    /// The objects pending deletes point at through to-one relationships, held until the
    /// delete rules change them (see `pinRelated(of:)`).
    @exclusivity(unchecked) var pinnedForDeleteRules: [ManagedObject] = []
    /// To-many relationships whose members could not be read from the store (an I/O
    /// error), with the error: they read as empty, so saving them would replace their
    /// stored members. `save()` refuses until they are read again.
    @exclusivity(unchecked) var unreadRelationships: [UnreadRelationship: CoreDataError] = [:]
    /// Managed object classes by entity, resolved once (see `objectClass(for:)`).
    @exclusivity(unchecked) var classCache = ContextClassCache()
    /// The entity and class of the last `insertNewObject(forEntityName:into:)`.
    @exclusivity(unchecked) var lastInsertedEntity: (entity: EntityDescription, type: ManagedObject.Type)?
    /// A parent store standing in for `persistentStoreCoordinator` (see `parentStore`);
    /// nil for a context on a coordinator. Set before the context is used.
    @exclusivity(unchecked) var installedParentStore: (any ParentObjectStore)?
    /// What a context keeps for its child contexts, and a child for its parent (see
    /// `NestedContextState`).
    @exclusivity(unchecked) var nested = NestedContextState()
    /// While a merge policy resolves a save's conflicts: the store's rows for them (nil
    /// for a deleted row), as the failed save found them.
    @exclusivity(unchecked) var conflictingRows: [ManagedObjectID: RowSnapshot?] = [:]
    /// The undo manager's link to the context, while `undoManager` is set.
    @exclusivity(unchecked) var undoState: ContextUndo?
    /// The iterators of `changes` and `saves`.
    let streams = ChangeStreams()
    /// `automaticallyMergesChangesFromParent`, and the source subscribed to for it.
    @exclusivity(unchecked) var mergesSavesAutomatically = false
    @exclusivity(unchecked) var automaticMergeSubscription: SaveBroadcast?
    /// The saves this context's children push into it, for children that merge their
    /// siblings' saves (`automaticallyMergesChangesFromParent`).
    let childSaves = SaveBroadcast()

    /// Creates a context; set `persistentStoreCoordinator` before using it.
    public init(concurrencyType: ConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueue:
            queue = .main
            _ = Self.mainQueueKey
        case .privateQueue: queue = DispatchQueue(label: "OpenCoreData.ManagedObjectContext")
        }
        if concurrencyType == .privateQueue { queue.setSpecific(key: queueKey, value: ObjectIdentifier(self)) }
        installChangeNotifications()
    }

    deinit {
        streams.finish()
        for reference in Array(registry.values) { reference.takeUnretainedValue().detach() }
    }

    // MARK: - Running on the context's queue

    /// Whether the caller already runs on this context's queue.
    /// (Or runs a block of it further up its stack: see `HeldQueues`.)
    var isOnQueue: Bool {
        if concurrencyType == .mainQueue { return Self.callerHoldsMainQueue }
        return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self) || HeldQueues.holds(self)
    }

    /// Whether the caller runs a block of the main queue.
    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// Whether the caller may use a main-queue context directly: it runs a block of the
    /// main queue (or one further up its stack, see `HeldQueues`), or runs on the main
    /// thread outside any queue block (a command-line program that never drives the main
    /// queue). Queue identity, not `Thread.isMainThread` alone: an async program on Linux
    /// runs main-queue blocks on a worker thread.
    package static var callerHoldsMainQueue: Bool { Thread.isMainThread || isOnMainQueue || HeldQueues.holdsMain }

    /// Runs `block` on the context's queue and waits for it, returning its value and
    /// rethrowing its error. Runs inline when already on the queue (also when a block
    /// of it waits further up the caller's stack, as when a parent context's block
    /// saves a child context, whose save calls back into the parent).
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        let callerHoldsMain = Thread.isMainThread || Self.isOnMainQueue
        return try queue.sync { try HeldQueues.running(self, holdingMain: callerHoldsMain, block) }
    }

    /// Schedules `block` on the context's queue and returns at once. The block ends an
    /// event: `processPendingChanges()` runs after it (not after `performAndWait`, as in
    /// Core Data).
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            HeldQueues.running(self, holdingMain: false) {
                block()
                self.processPendingChanges()
            }
        }
    }

    /// Runs `block` on the context's queue and returns its value when it completes; like
    /// `perform(_:)`, the block ends an event.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try HeldQueues.running(self, holdingMain: false, block) }
                HeldQueues.running(self, holdingMain: false) { self.processPendingChanges() }
                continuation.resume(with: result)
            }
        }
    }

    // MARK: - Registered objects

    /// Every object registered in the context.
    public var registeredObjects: Set<ManagedObject> {
        checkQueue()
        return Set(registry.values.map { $0.takeUnretainedValue() })
    }

    /// The registered object with `id`, or nil (never fetches).
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? {
        checkQueue()
        return registry[id]?.takeUnretainedValue()
    }

    /// What the context fetches from and saves to: the installed parent store (tests; a
    /// parent context, next) or else the coordinator. Every store access goes through it.
    var parentStore: any ParentObjectStore {
        if let installedParentStore { return installedParentStore }
        guard let persistentStoreCoordinator = coordinator else {
            preconditionFailure("ManagedObjectContext: set persistentStoreCoordinator before fetching or saving.")
        }
        return persistentStoreCoordinator
    }
}
