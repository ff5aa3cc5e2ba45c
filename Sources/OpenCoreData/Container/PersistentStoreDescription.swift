import Foundation

/// How a `PersistentContainer` adds one store (Core Data's `NSPersistentStoreDescription`):
/// its file, type, model configuration and options, and whether it loads in the
/// background.
///
/// `isReadOnly`, `timeout` and `sqlitePragmas` are conveniences over `options`, as in Core
/// Data: setting one sets its `PersistentStoreOption` key, and `options` is what
/// `loadPersistentStores(completionHandler:)` hands to
/// `PersistentStoreCoordinator.addPersistentStore(type:configuration:at:options:)`.
/// Configure a description before loading it; it is safe to read from any thread.
public final class PersistentStoreDescription: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: every stored property is read and written under `lock`.
    private let lock = NSLock()
    private var storedURL: URL?
    private var storedType = PersistentStoreType.sqlite
    private var storedConfiguration: String?
    private var storedAsynchronously = false
    private var storedOptions: [String: any Sendable] = [:]

    /// A SQLite store at `url` (nil: set `url` before loading), no configuration, loaded
    /// synchronously.
    public init(url: URL? = nil) {
        storedURL = url
    }

    /// The store file. A `.sqlite` description needs one; an `.inMemory` one ignores it.
    public var url: URL? {
        get { lock.withLock { storedURL } }
        set { lock.withLock { storedURL = newValue } }
    }

    /// The kind of store (default `.sqlite`).
    public var type: PersistentStoreType {
        get { lock.withLock { storedType } }
        set { lock.withLock { storedType = newValue } }
    }

    /// The model configuration whose entities the store holds (nil: all of them).
    public var configuration: String? {
        get { lock.withLock { storedConfiguration } }
        set { lock.withLock { storedConfiguration = newValue } }
    }

    /// Whether `loadPersistentStores` adds this store on a background queue instead of
    /// the calling thread (default false). See `PersistentContainer.loadPersistentStores`
    /// for where its completion runs.
    public var shouldAddStoreAsynchronously: Bool {
        get { lock.withLock { storedAsynchronously } }
        set { lock.withLock { storedAsynchronously = newValue } }
    }

    /// The options passed to `addPersistentStore` (`PersistentStoreOption` keys).
    public var options: [String: any Sendable] { lock.withLock { storedOptions } }

    /// Sets (or with nil removes) one option, e.g.
    /// `setOption(true, forKey: PersistentHistoryTrackingKey)`.
    public func setOption(_ option: (any Sendable)?, forKey key: String) {
        lock.withLock { storedOptions[key] = option }
    }

    /// Whether the store opens read-only (`PersistentStoreOption.readOnly`; default false).
    public var isReadOnly: Bool {
        get { (options[PersistentStoreOption.readOnly] as? Bool) ?? false }
        set { setOption(newValue, forKey: PersistentStoreOption.readOnly) }
    }

    /// Seconds a read or save waits for another connection's lock
    /// (`PersistentStoreOption.timeout`). Unset, it reads 5, the SQLite store's default.
    public var timeout: TimeInterval {
        get {
            let value = options[PersistentStoreOption.timeout]
            return (value as? Double) ?? (value as? Int).map(Double.init) ?? 5
        }
        set { setOption(newValue, forKey: PersistentStoreOption.timeout) }
    }

    /// The SQLite pragmas run when the store opens (`PersistentStoreOption.sqlitePragmas`).
    public var sqlitePragmas: [String: any Sendable] {
        (options[PersistentStoreOption.sqlitePragmas] as? [String: any Sendable]) ?? [:]
    }

    /// Sets (or with nil removes) one SQLite pragma, e.g.
    /// `setValue("DELETE", forPragmaNamed: "journal_mode")`.
    public func setValue(_ value: (any Sendable)?, forPragmaNamed name: String) {
        lock.withLock {
            var pragmas = (storedOptions[PersistentStoreOption.sqlitePragmas] as? [String: any Sendable]) ?? [:]
            pragmas[name] = value
            storedOptions[PersistentStoreOption.sqlitePragmas] = pragmas.isEmpty ? nil : pragmas
        }
    }

    public var description: String {
        "PersistentStoreDescription(type: \(type.rawValue), url: \(url?.path ?? "nil"), configuration: \(configuration ?? "nil"), async: \(shouldAddStoreAsynchronously))"
    }
}
