import Foundation

extension PersistentStoreCoordinator {
    /// Sets (or, with nil, removes) the function called with the SQL of every statement
    /// the coordinator's SQLite stores execute, as each starts: evidence, for tests, of
    /// what an operation ran. It is called on the thread running the statement, under the
    /// coordinator's lock; stores added later are not observed. The in-memory store runs
    /// no SQL.
    package func observeSQL(_ observer: (@Sendable (String) -> Void)?) {
        lock.withLock {
            for store in stores {
                (store.backend as? SQLiteStore)?.connection.statementObserver = observer
            }
        }
    }
}
