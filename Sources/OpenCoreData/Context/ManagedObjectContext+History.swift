import Foundation

extension ManagedObjectContext {
    // MARK: - Persistent history

    /// Fetches or deletes persistent history (see `PersistentHistoryChangeRequest`) in
    /// the stores of the context's coordinator, and returns what the request's
    /// `resultType` asks for. Fetched transactions are merged into a context with
    /// `mergeChanges(fromContextDidSave: transaction.objectIDNotification())`.
    ///
    /// - Throws: `.persistentHistoryTokenExpired` for a token whose history was deleted
    ///   or of a store the coordinator does not have; `.storeUnsupportedRequest` when no
    ///   store has history; store errors.
    public func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        checkQueue()
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure("ManagedObjectContext: set persistentStoreCoordinator (or a parent) before executing a persistent history request.")
        }
        return try coordinator.executeHistory(request)
    }

    /// Who this context's saves and batch requests are recorded as in persistent history.
    var transactionOrigin: TransactionOrigin { TransactionOrigin(author: transactionAuthor, contextName: name) }
}
