import OpenCoreData
import Synchronization

extension PersistentStoreCoordinator {
    /// The SQL of every statement the coordinator's SQLite stores executed while `body`
    /// ran, in order, as prepared (parameters unbound): lets a test assert what an
    /// operation ran, not only how many statements. Captures do not nest; the in-memory
    /// store runs no SQL, so it captures nothing.
    package func capturingSQL(_ body: () throws -> Void) rethrows -> [String] {
        let log = SQLLog()
        observeSQL { log.append($0) }
        defer { observeSQL(nil) }
        try body()
        return log.statements
    }
}

extension TestStack {
    /// The SQL the stack's store executed while `body` ran (see
    /// `PersistentStoreCoordinator.capturingSQL(_:)`).
    package func capturingSQL(_ body: () throws -> Void) rethrows -> [String] {
        try coordinator.capturingSQL(body)
    }
}

/// Statements appended from whichever thread runs them.
private final class SQLLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ sql: String) { lines.withLock { $0.append(sql) } }
    var statements: [String] { lines.withLock { $0 } }
}
