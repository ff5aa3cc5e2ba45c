import DemoStore
import Dispatch
import Foundation
import Logging
import OpenCoreData
import Synchronization

/// Brings every save into the view of every tab but the one that made it — another tab's,
/// the command line's, another server's alike: on each remote change notification of the
/// store (posted for every commit, by this process or another) it fetches the persistent
/// history since the last transaction it merged and merges each transaction into the view
/// context of each tab whose author it is not. The pages' fetched results controllers
/// report what the merge changed.
final class RemoteChanges: Sendable {
    private let store: DemoStore
    private let logger: Logger
    private let tabs: @Sendable () -> [Tab]
    private let queue = DispatchQueue(label: "OpenCoreData.WebApp.RemoteChanges")
    /// The notification's observer, and the last transaction merged (before the first
    /// one, the time the server started: the tabs read everything saved before it).
    private let state: Mutex<(observer: Observer?, last: PersistentHistoryToken?, started: Date)>
    private let reader: ManagedObjectContext

    init(store: DemoStore, logger: Logger, tabs: @escaping @Sendable () -> [Tab]) {
        self.store = store
        self.logger = logger
        self.tabs = tabs
        state = Mutex((nil, nil, Date()))
        reader = store.newContext()
        start()
    }

    private func start() {
        let coordinator = store.container.persistentStoreCoordinator
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { [weak self] _ in
            guard let self else { return }
            queue.async { self.mergeNewTransactions() }
        }
        state.withLock { $0.observer = Observer(token: observer) }
    }

    /// Stops listening.
    func stop() {
        if let observer = state.withLock({ state -> Observer? in
            defer { state.observer = nil }
            return state.observer
        }) {
            NotificationCenter.default.removeObserver(observer.token)
        }
    }

    private func mergeNewTransactions() {
        let (after, started) = state.withLock { ($0.last, $0.started) }
        do {
            let request = after.map { PersistentHistoryChangeRequest.fetchHistory(after: $0) } ?? .fetchHistory(after: started)
            let transactions = try reader.performAndWait { try reader.execute(request).transactions }
            guard let newest = transactions.last?.token else { return }
            state.withLock { $0.last = newest }
            let tabs = tabs()
            for transaction in transactions {
                let notification = transaction.objectIDNotification()
                for tab in tabs where tab.author != transaction.author {
                    tab.session.mergeChanges(fromContextDidSave: notification)
                }
            }
        } catch {
            logger.warning("Could not read the store's history to merge other programs' changes: \(error)")
        }
    }
}

/// A notification observer's token, which Foundation does not mark Sendable.
private final class Observer: @unchecked Sendable {
    // @unchecked Sendable: the token is only handed back to NotificationCenter.
    let token: any NSObjectProtocol
    init(token: any NSObjectProtocol) { self.token = token }
}
