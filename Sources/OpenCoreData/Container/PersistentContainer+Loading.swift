import Foundation

// MARK: - Loading the stores

extension PersistentContainer {
    /// Adds a store for each of `persistentStoreDescriptions`, in order, calling
    /// `completionHandler` once per description with it and the error that kept its store
    /// from opening (nil on success). A failing description does not stop the others.
    ///
    /// Where the work and the completion run, as in Core Data:
    /// - a description loaded synchronously (the default) adds its store on the calling
    ///   thread and calls the completion there, before this method returns;
    /// - one with `shouldAddStoreAsynchronously` adds its store on a background queue of
    ///   the container (asynchronous descriptions load one after another, in order) and
    ///   calls the completion on that queue, not the main queue: the caller is not blocked,
    ///   and hops to the main queue itself if it needs to.
    ///
    /// The description's `options` are passed to
    /// `addPersistentStore(type:configuration:at:options:)` as they are (history tracking,
    /// remote change notifications, read-only, timeout, pragmas…).
    public func loadPersistentStores(completionHandler: @escaping @Sendable (PersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            if description.shouldAddStoreAsynchronously {
                loadQueue.async { [self] in
                    completionHandler(description, addStore(description))
                }
            } else {
                completionHandler(description, addStore(description))
            }
        }
    }

    /// Adds the store `description` describes; the error when it cannot.
    private func addStore(_ description: PersistentStoreDescription) -> (any Error)? {
        do {
            try persistentStoreCoordinator.addPersistentStore(
                type: description.type,
                configuration: description.configuration,
                at: description.url,
                options: description.options
            )
            return nil
        } catch {
            return error
        }
    }
}
