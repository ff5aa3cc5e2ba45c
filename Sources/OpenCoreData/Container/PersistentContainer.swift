import Foundation

/// A ready Core Data stack (Core Data's `NSPersistentContainer`): a model, a coordinator,
/// the descriptions of the stores to add, a main-queue `viewContext` for reading and
/// background contexts for writing.
///
/// ```swift
/// let container = try PersistentContainer(name: "Model", bundle: .module)
/// container.loadPersistentStores { description, error in
///     if let error { print("Cannot open \(description): \(error)") }
/// }
/// container.viewContext.automaticallyMergesChangesFromParent = true
/// container.performBackgroundTask { context in … try? context.save() }
/// ```
///
/// By default the one store is SQLite, at `defaultDirectoryURL()/NAME.sqlite`; replace or
/// change `persistentStoreDescriptions` before `loadPersistentStores`. Subclass to
/// override `defaultDirectoryURL()`.
///
/// `viewContext` is a `.mainQueue` context: see docs/persistent-container.md for what a
/// Linux program must do so that main-queue work (its automatic merges, `perform`) runs.
open class PersistentContainer: @unchecked Sendable {
    // @unchecked Sendable: `name`, the model and the coordinator are immutable (the
    // coordinator is thread-safe); `descriptions` and `view` are read and written under
    // `lock`.

    /// The container's name: the default store's file name and the model's name.
    public let name: String
    /// The model of every store and context of the container.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator the container's stores are added to and its contexts use.
    public let persistentStoreCoordinator: PersistentStoreCoordinator

    private let lock = NSLock()
    private var descriptions: [PersistentStoreDescription] = []
    private var view: ManagedObjectContext?
    /// Adds the stores of asynchronous descriptions, one after another.
    let loadQueue = DispatchQueue(label: "OpenCoreData.PersistentContainer.load")

    /// A container named `name` using `model`, with one SQLite store description at
    /// `defaultDirectoryURL()/NAME.sqlite`. Nothing is opened until `loadPersistentStores`.
    public init(name: String, managedObjectModel model: ManagedObjectModel) {
        self.name = name
        managedObjectModel = model
        persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let url = Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite", isDirectory: false)
        descriptions = [PersistentStoreDescription(url: url)]
    }

    /// A container whose model is `name.xcdatamodeld` (or `name.xcdatamodel`) in `bundle`.
    ///
    /// On Linux pass your target's `Bundle.module`, the model declared as
    /// `resources: [.copy("Name.xcdatamodeld")]`.
    ///
    /// - Throws: `CoreDataError.invalidModel` when the bundle has no such source model
    ///   (naming where it looked), holds only a compiled `.momd`/`.mom` (saying to ship the
    ///   source model), or the model is malformed.
    public convenience init(name: String, bundle: Bundle = .main) throws {
        self.init(name: name, managedObjectModel: try ManagedObjectModel(named: name, bundle: bundle))
    }

    /// The folder of the default store: `$XDG_DATA_HOME` (when set to an absolute path,
    /// as the XDG Base Directory spec requires), else `$HOME/.local/share`, then a folder
    /// named after the program (`ProcessInfo.processInfo.processName`).
    ///
    /// The folder is created when a store in it is added, not here. Override it in a
    /// subclass to put every container of that class elsewhere, as in Core Data:
    ///
    /// ```swift
    /// final class AppContainer: PersistentContainer {
    ///     override class func defaultDirectoryURL() -> URL { URL(fileURLWithPath: "/var/lib/app") }
    /// }
    /// ```
    open class func defaultDirectoryURL() -> URL {
        PersistentContainer.defaultDirectoryURL(environment: ProcessInfo.processInfo.environment, processName: ProcessInfo.processInfo.processName)
    }

    /// The descriptions of the stores `loadPersistentStores` adds, in order.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { lock.withLock { descriptions } }
        set { lock.withLock { descriptions = newValue } }
    }

    /// The main-queue context on the coordinator, for reading and the UI; made on first use
    /// and named "viewContext". Set `automaticallyMergesChangesFromParent` to merge what
    /// other contexts save (the merges run on the main queue).
    public var viewContext: ManagedObjectContext {
        lock.withLock {
            if let view { return view }
            let context = ManagedObjectContext(concurrencyType: .mainQueue)
            context.name = "viewContext"
            context.persistentStoreCoordinator = persistentStoreCoordinator
            view = context
            return context
        }
    }

    /// A new private-queue context on the coordinator, for work off the main queue; use it
    /// inside `perform` / `performAndWait`.
    public func newBackgroundContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new background context's queue and returns at once; the context
    /// is released after the block (save inside it).
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new background context's queue and returns its value (or
    /// rethrows its error) when it is done.
    public func performBackgroundTask<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}
