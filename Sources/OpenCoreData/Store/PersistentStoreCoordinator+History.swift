import Foundation

/// Persistent history requests, run under the coordinator's lock.
extension PersistentStoreCoordinator {
    /// The token of `store`'s newest history transaction (nil: no history, or the store is
    /// not this coordinator's any more), read under the lock.
    func newestHistoryToken(of store: PersistentStore) -> PersistentHistoryToken? {
        lock.withLock {
            guard stores.contains(where: { $0 === store }) else { return nil }
            return try? store.newestHistoryToken()
        }
    }

    /// Fetches or deletes the history `request` selects: in the store its token or
    /// transaction names, else in every store that has history (transactions of several
    /// stores in timestamp order).
    ///
    /// - Throws: `.persistentHistoryTokenExpired` for a token of a store this coordinator
    ///   does not have, or whose history after it was deleted;
    ///   `.storeUnsupportedRequest` when no store has persistent history; store errors
    ///   (`.storeReadOnly` deleting in a read-only store).
    func executeHistory(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try lock.withLock {
            var targets = stores
            if let identifier = request.storeIdentifier {
                guard let store = stores.first(where: { $0.identifier == identifier }) else {
                    throw CoreDataError(.persistentHistoryTokenExpired,
                        "The history token names the store \(identifier), which this coordinator does not have (its stores: \(stores.map(\.identifier).joined(separator: ", "))); fetch from a nil token instead.")
                }
                targets = [store]
            }
            switch request.operation {
            case .fetch: return try fetchHistory(request, from: targets)
            case .delete:
                let counts = try targets.compactMap { try $0.backend.deleteHistory(request) }
                guard !counts.isEmpty else { throw Self.noHistoryError }
                return PersistentHistoryResult(result: request.resultType == .statusOnly ? true : counts.reduce(0, +))
            }
        }
    }

    private func fetchHistory(_ request: PersistentHistoryChangeRequest, from targets: [PersistentStore]) throws -> PersistentHistoryResult {
        let type = request.resultType
        let withChanges = type == .transactionsAndChanges || type == .changesOnly || type == .objectIDs
        let found = try targets.compactMap { try $0.backend.fetchHistory(request, withChanges: withChanges) }
        guard !found.isEmpty else { throw Self.noHistoryError }
        let transactions = found.count == 1 ? found[0] : found.joined().sorted { $0.timestamp < $1.timestamp }
        switch type {
        case .statusOnly: return PersistentHistoryResult(result: true)
        case .count: return PersistentHistoryResult(result: transactions.count)
        case .objectIDs: return PersistentHistoryResult(result: transactions.flatMap { ($0.changes ?? []).map(\.changedObjectID) })
        case .changesOnly: return PersistentHistoryResult(result: transactions.flatMap { $0.changes ?? [] })
        case .transactionsOnly, .transactionsAndChanges: return PersistentHistoryResult(result: transactions)
        }
    }

    private static var noHistoryError: CoreDataError {
        CoreDataError(.storeUnsupportedRequest,
            "No store of this coordinator has persistent history: add a SQLite store with PersistentStoreOption.persistentHistoryTracking set to true.")
    }
}
