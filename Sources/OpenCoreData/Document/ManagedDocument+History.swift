import Foundation

// MARK: - Following saves made elsewhere

extension ManagedDocument {
    /// Merges the store's new history whenever the store posts a remote change
    /// notification (for every commit to its file, by any process, this one's included).
    func observeRemoteChanges() {
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: persistentStoreCoordinator, queue: nil
        ) { [weak self] _ in self?.mergeNewHistory() }
        lock.withLock { status.observers.append(observer) }
    }

    /// Remembers where the store's history stands when the document opens: what was saved
    /// before is read by fetches, what is saved after is merged by `mergeNewHistory`.
    func startFollowingHistory(of store: PersistentStore) {
        let token = persistentStoreCoordinator.newestHistoryToken(of: store)
        lock.withLock { status.historyToken = token }
    }

    /// Merges what other contexts and processes saved to the store since the last merge:
    /// fetches the history after the document's token, skips the document's own
    /// transactions, and merges each into the writer (on its queue), then into
    /// `managedObjectContext` (on the main queue), so that its objects, and fetched results
    /// controllers on it, show them. Unsaved edits are kept; where they touch the same
    /// objects, the next save resolves them by the context's merge policy. `done` runs on
    /// the main queue after the merge.
    ///
    /// The document calls it on each remote change notification of its store (see
    /// `observeRemoteChanges()`).
    func mergeNewHistory(_ done: (@Sendable () -> Void)? = nil) {
        guard let store = lock.withLock({ status.store }), store.type == .sqlite else {
            if let done { DispatchQueue.main.async(execute: done) }
            return
        }
        writer.perform { [self] in
            let merged = mergeHistoryIntoWriter(of: store)
            DispatchQueue.main.async { [self] in
                switch merged {
                case .saves(let notifications):
                    for notification in notifications { managedObjectContext.mergeChanges(fromContextDidSave: notification) }
                case .everything:
                    managedObjectContext.refreshAllObjects()
                }
                done?()
            }
        }
    }

    /// What the writer merged, for the main context to merge in turn.
    private enum HistoryMerge {
        /// The did-save notifications of the transactions merged.
        case saves([Notification])
        /// The history was gone: every object was refreshed.
        case everything
    }

    /// On the writer's queue: merges the transactions after the token into the writer.
    /// When the token expired (its history was deleted) every object is refreshed instead.
    private func mergeHistoryIntoWriter(of store: PersistentStore) -> HistoryMerge {
        let token = lock.withLock { status.historyToken }
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try writer.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions
        } catch let error as CoreDataError where error.code == .persistentHistoryTokenExpired {
            writer.refreshAllObjects()
            lock.withLock { status.historyToken = persistentStoreCoordinator.newestHistoryToken(of: store) }
            return .everything
        } catch {
            handleMergeError(error)
            return .saves([])
        }
        guard let last = transactions.last else { return .saves([]) }
        lock.withLock { status.historyToken = last.token }
        var notifications: [Notification] = []
        for transaction in transactions where transaction.author != author {
            let notification = transaction.objectIDNotification()
            writer.mergeChanges(fromContextDidSave: notification)
            notifications.append(notification)
        }
        return .saves(notifications)
    }

    private func handleMergeError(_ error: any Error) {
        DispatchQueue.main.async { [self] in handleError(error, userInteractionPermitted: false) }
    }
}
