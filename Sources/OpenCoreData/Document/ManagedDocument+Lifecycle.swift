import Foundation

// MARK: - Opening, creating and closing

extension ManagedDocument {
    /// Opens the existing document at `fileURL`: loads its store. `completionHandler` gets
    /// whether it opened, on the main queue; a failure goes to `handleError` too.
    ///
    /// Fails (false) when there is no document there (create one with
    /// `save(to:for: .forCreating)`), the store cannot be opened, or the document is open.
    public func open(completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        Self.onMainQueue { [self] in
            do {
                try loadStore(creating: false)
                completionHandler?(true)
            } catch {
                handleError(error, userInteractionPermitted: false)
                completionHandler?(false)
            }
        }
    }

    /// Saves the document at `url`, which must be its `fileURL`: `.forCreating` makes the
    /// package and its store (failing when a document is already there);
    /// `.forOverwriting` saves an open document's changes.
    /// `completionHandler` gets whether the save succeeded, on the main queue.
    public func save(to url: URL, for operation: SaveOperation, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        Self.onMainQueue { [self] in
            do {
                guard url.standardizedFileURL == fileURL.standardizedFileURL else {
                    throw CoreDataError(.storeOperationFailed, "A ManagedDocument saves to its own fileURL \(fileURL.path), not \(url.path): make a new document for another location.")
                }
                switch operation {
                case .forCreating: try loadStore(creating: true)
                case .forOverwriting:
                    guard isOpen else {
                        throw CoreDataError(.storeOperationFailed, "The document at \(fileURL.path) is not open: open it, or create it with .forCreating, before saving.")
                    }
                }
            } catch {
                handleError(error, userInteractionPermitted: false)
                completionHandler?(false)
                return
            }
            saveChanges { completionHandler?($0) }
        }
    }

    /// Saves the document's changes, if any, then closes it: its store is removed and its
    /// contexts are reset, and `documentState` becomes `.closed`. When the save fails the
    /// document stays open with `.savingError` and its changes (nothing is lost), and
    /// `completionHandler` gets false. Runs on the main queue.
    public func close(completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        Self.onMainQueue { [self] in
            guard isOpen else {
                completionHandler?(true)
                return
            }
            saveChanges { [self] saved in
                guard saved else {
                    completionHandler?(false)
                    return
                }
                unloadStore()
                completionHandler?(true)
            }
        }
    }

    /// `open(completionHandler:)`, awaited.
    public func open() async -> Bool {
        await withCheckedContinuation { continuation in open { continuation.resume(returning: $0) } }
    }

    /// `save(to:for:completionHandler:)`, awaited.
    public func save(to url: URL, for operation: SaveOperation) async -> Bool {
        await withCheckedContinuation { continuation in save(to: url, for: operation) { continuation.resume(returning: $0) } }
    }

    /// `close(completionHandler:)`, awaited.
    public func close() async -> Bool {
        await withCheckedContinuation { continuation in close { continuation.resume(returning: $0) } }
    }

    // MARK: - The store

    /// Whether the store is loaded.
    var isOpen: Bool { lock.withLock { status.store != nil } }

    /// The options a store of `type` is added with: the document's, plus history tracking
    /// (SQLite only, as only SQLite stores keep history) and remote change notifications
    /// (unless set otherwise), which the document follows other processes' saves with.
    func effectiveStoreOptions(for type: PersistentStoreType) -> [String: any Sendable] {
        var options = persistentStoreOptions ?? [:]
        if type == .sqlite, options[PersistentStoreOption.persistentHistoryTracking] == nil {
            options[PersistentStoreOption.persistentHistoryTracking] = true
        }
        if options[PersistentStoreOption.remoteChangeNotificationPost] == nil { options[PersistentStoreOption.remoteChangeNotificationPost] = true }
        return options
    }

    /// Loads the store of the package at `fileURL`, making the package first when
    /// `creating`. On the main queue.
    private func loadStore(creating: Bool) throws {
        guard !isOpen else { throw CoreDataError(.storeOperationFailed, "The document at \(fileURL.path) is already open.") }
        let storeURL = storeURL(forDocumentAt: fileURL)
        let files = FileManager.default
        if creating {
            guard !files.fileExists(atPath: fileURL.path) else {
                throw CoreDataError(.storeOperationFailed, "A document already exists at \(fileURL.path): open it, or save with .forOverwriting.")
            }
            do {
                try files.createDirectory(at: storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw CoreDataError(.storeOpenFailed, "Cannot create the document package at \(fileURL.path): \(error.localizedDescription)")
            }
        } else if !files.fileExists(atPath: storeURL.path) {
            throw CoreDataError(.storeOpenFailed, "There is no document at \(fileURL.path) (no \(Self.storeContentName)/\(Self.persistentStoreName) in it): create it with save(to:for: .forCreating).")
        }
        let type = persistentStoreType(forFileType: fileURL.pathExtension)
        let options = effectiveStoreOptions(for: type)
        let store: PersistentStore
        do {
            store = try persistentStoreCoordinator.addPersistentStore(type: type, configuration: modelConfiguration, at: storeURL, options: options)
        } catch {
            if creating { try? files.removeItem(at: fileURL) }
            throw error
        }
        let readOnly = (options[PersistentStoreOption.readOnly] as? Bool) == true
            || (store.type == .sqlite && !files.isWritableFile(atPath: storeURL.path))
        lock.withLock { status.store = store }
        startFollowingHistory(of: store)
        setState(readOnly ? .editingDisabled : .normal)
    }

    /// Removes the store and forgets the contexts' objects. On the main queue.
    private func unloadStore() {
        writer.performAndWait { writer.reset() }
        managedObjectContext.reset()
        let store = lock.withLock { () -> PersistentStore? in
            defer { status.store = nil; status.writerHasChanges = false; status.editGeneration += 1; status.historyToken = nil }
            return status.store
        }
        if let store { persistentStoreCoordinator.remove(store) }
        setState(.closed)
    }

    // MARK: - State

    /// Sets `documentState`, posting `stateChangedNotification` when it changes. On the
    /// main queue.
    func setState(_ state: State) {
        let changed = lock.withLock { () -> Bool in
            defer { status.state = state }
            return status.state != state
        }
        if changed { NotificationCenter.default.post(name: Self.stateChangedNotification, object: self) }
    }

    /// Runs `block` now when the caller is on the main queue (or thread), else on the main
    /// queue.
    static func onMainQueue(_ block: @escaping @Sendable () -> Void) {
        if Thread.isMainThread || ManagedObjectContext.isOnMainQueue { block() } else { DispatchQueue.main.async(execute: block) }
    }
}
