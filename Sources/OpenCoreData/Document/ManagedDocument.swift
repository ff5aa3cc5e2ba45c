import Foundation

/// A document whose content is a Core Data store (UIKit's `UIManagedDocument`, for Linux).
///
/// The document is a package folder at `fileURL` holding its store at
/// `StoreContent/persistentStore`, as `UIManagedDocument` lays it out. Its
/// `managedObjectContext` is a main-queue context whose parent is a private-queue context
/// that writes the store, so saving never blocks the main queue on the disk.
///
/// ```swift
/// let document = ManagedDocument(fileURL: url, managedObjectModel: model)
/// if FileManager.default.fileExists(atPath: url.path) { document.open { ok in … } }
/// else { document.save(to: url, for: .forCreating) { ok in … } }
/// // edit document.managedObjectContext on the main queue; it autosaves
/// document.close { ok in … }
/// ```
///
/// Changes autosave `autosaveDelay` seconds after the last edit; `close` saves. A failed
/// save sets `.savingError` in `documentState` (and `.inConflict` for an unresolved merge
/// conflict), keeps the changes, and is retried by the next save. Completion handlers run
/// on the main queue, as UIKit's do: on Linux the program must drive it (see
/// docs/managed-document.md).
open class ManagedDocument: @unchecked Sendable {
    // @unchecked Sendable: the contexts are used on their queues; `status` is read and
    // written under `lock`; everything else is immutable or only touched on the main
    // queue (the document's operations run there).

    /// The document package.
    public let fileURL: URL
    /// The model of the document's store.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator of the document's store.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The main-queue context to read and edit the document with. Its `mergePolicy`
    /// resolves conflicts with saves made elsewhere (default `.mergeByPropertyObjectTrump`,
    /// see docs/managed-document.md).
    public let managedObjectContext: ManagedObjectContext
    /// The private-queue parent of `managedObjectContext`, which writes the store.
    let writer: ManagedObjectContext

    /// Options for the store, set before the document is opened or created
    /// (`PersistentStoreOption` keys). The document adds history tracking and remote change
    /// notifications to them, so that it can follow saves made by other processes.
    public var persistentStoreOptions: [String: any Sendable]? {
        get { lock.withLock { status.storeOptions } }
        set { lock.withLock { status.storeOptions = newValue } }
    }
    /// The model configuration the store holds (nil: all entities).
    public var modelConfiguration: String? {
        get { lock.withLock { status.configuration } }
        set { lock.withLock { status.configuration = newValue } }
    }
    /// Seconds of quiet after an edit before the document saves by itself (default 1;
    /// 0 or less turns autosaving off).
    public var autosaveDelay: TimeInterval {
        get { lock.withLock { status.autosaveDelay } }
        set { lock.withLock { status.autosaveDelay = newValue } }
    }

    let lock = NSLock()
    /// The document's changing state, under `lock`.
    var status = Status()

    struct Status {
        var state: State = .closed
        var storeOptions: [String: any Sendable]?
        var configuration: String?
        var autosaveDelay: TimeInterval = 1
        /// The loaded store, while open.
        var store: PersistentStore?
        /// Whether the writer holds changes a failed store save left.
        var writerHasChanges = false
        /// Bumped by every edit; a scheduled autosave runs only if it is still current.
        var editGeneration = 0
        var observers: [any NSObjectProtocol] = []
        /// The store's history merged so far (nil: none, or the store keeps no history).
        var historyToken: PersistentHistoryToken?
    }

    /// The writer's `transactionAuthor`, unique to this document object: its own saves
    /// are skipped when it merges the store's history.
    let author = "ManagedDocument \(UUID().uuidString)"

    /// A closed document at `fileURL` using `model`. Nothing is read until `open` or
    /// `save(to:for: .forCreating)`.
    public init(fileURL: URL, managedObjectModel model: ManagedObjectModel) {
        self.fileURL = fileURL
        managedObjectModel = model
        persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        writer = ManagedObjectContext(concurrencyType: .privateQueue)
        writer.name = "ManagedDocument.writer"
        writer.persistentStoreCoordinator = persistentStoreCoordinator
        writer.transactionAuthor = author
        managedObjectContext = ManagedObjectContext(concurrencyType: .mainQueue)
        managedObjectContext.name = "ManagedDocument"
        managedObjectContext.parent = writer
        managedObjectContext.mergePolicy = .mergeByPropertyObjectTrump
        observeEdits()
        observeRemoteChanges()
    }

    /// A document whose model is `modelName.xcdatamodeld` (or `.xcdatamodel`) in `bundle`,
    /// found as `PersistentContainer(name:bundle:)` finds it.
    ///
    /// - Throws: `CoreDataError.invalidModel` when the bundle holds no such source model.
    public convenience init(fileURL: URL, modelNamed modelName: String, bundle: Bundle = .main) throws {
        self.init(fileURL: fileURL, managedObjectModel: try ManagedObjectModel(named: modelName, bundle: bundle))
    }

    deinit {
        for observer in status.observers { NotificationCenter.default.removeObserver(observer) }
    }

    // MARK: - The package

    /// The name of the store file inside the package's `StoreContent` folder
    /// (`UIManagedDocument.persistentStoreName`). Override to rename it.
    open class var persistentStoreName: String { "persistentStore" }

    /// The folder of the package holding the store.
    public static let storeContentName = "StoreContent"

    /// The store file of a document package at `url`.
    public func storeURL(forDocumentAt url: URL) -> URL {
        url.appendingPathComponent(Self.storeContentName, isDirectory: true)
            .appendingPathComponent(Self.persistentStoreName, isDirectory: false)
    }

    /// The store type for a document of `fileType` (its file extension); `.sqlite`.
    /// Override to use another type (UIKit's `persistentStoreType(forFileType:)`).
    open func persistentStoreType(forFileType fileType: String) -> PersistentStoreType { .sqlite }

    /// The document's state: `.closed` until opened or created.
    public var documentState: State { lock.withLock { status.state } }

    /// Whether the document holds edits not yet written to its store. Read it on the main
    /// queue.
    public var hasUnsavedChanges: Bool {
        managedObjectContext.hasChanges || lock.withLock { status.writerHasChanges }
    }

    /// Called with each error that makes an operation fail (a save, an open), on the main
    /// queue; the default does nothing. Override to report errors: the state notification
    /// carries none, as in UIKit.
    open func handleError(_ error: any Error, userInteractionPermitted: Bool) {}
}
