import Foundation
import Logging
import OpenCoreData

/// Skopelos' data-access layer: reads on a main-queue context, writes on private-queue
/// scratch contexts saved all the way to disk, every error in one place.
///
/// Subclass it to handle errors:
///
/// ```swift
/// final class SkopelosClient: DALService {
///     override func handleError(_ error: any Error) { print("DAL: \(error)") }
/// }
/// let dal = SkopelosClient(sqliteStack: model, storeURL: url)
/// dal.writeSync { context in
///     User.create(in: context).firstname = "Ada"
/// }.read { context in
///     print(try User.count(in: context))      // 1
/// }
/// ```
///
/// The stack: a private-queue root context owns the coordinator; the main-queue context
/// that reads is its child; each write runs on a private-queue scratch context, also a
/// child of the root, and saves scratch → root → disk before it returns, queueing the merge
/// of what it saved into the main context. No write waits on the main queue. See
/// `docs/data-access.md`.
open class DALService: @unchecked Sendable {
    // @unchecked Sendable: `stack` and `mainQueueTimeout` are under `lock`; commits are
    // serialised by `commitLock`; contexts confine themselves to their queues.

    /// The model of the stack.
    public let managedObjectModel: ManagedObjectModel
    /// `.sqlite` or `.inMemory`.
    public let storeType: PersistentStoreType
    /// The store file (nil for an in-memory stack).
    public let storeURL: URL?
    /// Whether writes may run at the same time, each on its own scratch context (the
    /// default); when false, writes share one scratch context, left clean by a failed write.
    public let allowsConcurrentWritings: Bool
    /// How app-state saving is done for this service (see `AppStateSaving`).
    public let appStateSaving: AppStateSaving

    private let lock = NSLock()
    private var currentStack: DALStack
    private var hopTimeout: TimeInterval = 5
    /// Serialises pushing a scratch context into the root and saving the root, so that a
    /// failed save can take its changes back out of the root without touching another's.
    let commitLock = NSLock()
    static let logger = Logger(label: "OpenCoreData.DataAccess")

    /// Creates the stack and adds the store.
    ///
    /// - Parameters:
    ///   - shouldAddStoreAsynchronously: add the store on the root context's queue and
    ///     return at once; reads and writes issued meanwhile wait for it. `completion` is
    ///     then called on the main queue. Otherwise the store is added before `init`
    ///     returns, and `completion` is called before it returns, on the caller's thread.
    ///   - completion: told when the store is added, with the error if it could not be
    ///     (which also goes to `handleError(_:)`; reads and writes then fail with it).
    public init(
        model: ManagedObjectModel,
        storeType: PersistentStoreType,
        storeURL: URL?,
        allowsConcurrentWritings: Bool = true,
        appStateSaving: AppStateSaving? = nil,
        shouldAddStoreAsynchronously: Bool = false,
        completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        managedObjectModel = model
        self.storeType = storeType
        self.storeURL = storeURL
        self.allowsConcurrentWritings = allowsConcurrentWritings
        self.appStateSaving = appStateSaving ?? (storeType == .sqlite ? .signalsAndExit : .off)
        currentStack = DALStack(model: model, storeType: storeType, storeURL: storeURL, sharesScratch: !allowsConcurrentWritings)
        loadStore(asynchronously: shouldAddStoreAsynchronously, completion: completion)
        AppStateReactor.shared.register(self)
    }

    /// A SQLite stack at `storeURL`, by default `defaultDirectoryURL()/PROGRAM.sqlite`
    /// (the program's name; `init(sqliteStack:bundle:storeURL:)` names it after the model).
    public convenience init(
        sqliteStack model: ManagedObjectModel,
        storeURL: URL? = nil,
        allowsConcurrentWritings: Bool = true,
        appStateSaving: AppStateSaving = .signalsAndExit,
        shouldAddStoreAsynchronously: Bool = false,
        completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        self.init(model: model, storeType: .sqlite, storeURL: storeURL ?? Self.defaultStoreURL(named: ProcessInfo.processInfo.processName),
                  allowsConcurrentWritings: allowsConcurrentWritings, appStateSaving: appStateSaving,
                  shouldAddStoreAsynchronously: shouldAddStoreAsynchronously, completion: completion)
    }

    /// An in-memory stack (for tests and previews): nothing outlives the process.
    public convenience init(
        inMemoryStack model: ManagedObjectModel,
        allowsConcurrentWritings: Bool = true,
        shouldAddStoreAsynchronously: Bool = false,
        completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        self.init(model: model, storeType: .inMemory, storeURL: nil, allowsConcurrentWritings: allowsConcurrentWritings,
                  appStateSaving: .off, shouldAddStoreAsynchronously: shouldAddStoreAsynchronously, completion: completion)
    }

    deinit {
        AppStateReactor.shared.unregister(self)
    }

    /// The folder SQLite stacks keep their store in when given no URL:
    /// `PersistentContainer.defaultDirectoryURL()` (`$XDG_DATA_HOME`, else
    /// `~/.local/share`, then a folder named after the program). Override it in a subclass
    /// to move them, as with Core Data's container.
    open class func defaultDirectoryURL() -> URL {
        PersistentContainer.defaultDirectoryURL()
    }

    /// Called with every error of a read, a write, loading the store or app-state saving,
    /// on the thread where it happened. Override it to report errors in one place (the
    /// default logs them). Completions and `async` forms get the same error too.
    open func handleError(_ error: any Error) {
        Self.logger.error("DataAccess: \(error)")
    }

    /// How long a `read` from off the main queue waits for the main queue to start it
    /// before giving up with `.mainQueueUnavailable` (5 s by default).
    public var mainQueueTimeout: TimeInterval {
        get { lock.withLock { hopTimeout } }
        set { lock.withLock { hopTimeout = newValue } }
    }

    /// The contexts now in use (`nuke()` replaces them).
    var stack: DALStack { lock.withLock { currentStack } }

    func replaceStack(with stack: DALStack) { lock.withLock { currentStack = stack } }

    /// The main-queue context reads run on. Use it only on the main queue (or the main
    /// thread), e.g. for a `FetchedResultsController`; it changes after `nuke()`.
    public var mainContext: ManagedObjectContext { stack.main }

    /// Adds the current stack's store, reporting the outcome (see `init`).
    func loadStore(asynchronously: Bool, completion: (@Sendable ((any Error)?) -> Void)?) {
        stack.loadStore(asynchronously: asynchronously) { [weak self] error in
            if let error { self?.handleError(error) }
            guard let completion else { return }
            if asynchronously { DispatchQueue.main.async { completion(error) } } else { completion(error) }
        }
    }

    /// Hands `error` to `handleError(_:)` and returns it, for a completion or a throw.
    @discardableResult
    func report(_ error: any Error) -> any Error {
        handleError(error)
        return error
    }
}
