import Foundation

extension SQLiteStore {
    /// Whether another connection committed to the file since the last call:
    /// `PRAGMA data_version` changes exactly then, and not for this connection's own
    /// commits (<https://sqlite.org/pragma.html#pragma_data_version>). A check of the
    /// row cache, not a read of rows: it is left out of `executedStatementCount` and
    /// `steppedRowCount`.
    func hasExternalChanges() throws -> Bool {
        guard let version = try connection.dataVersion() else { return false }
        connection.executedStatementCount &-= 1
        connection.steppedRowCount &-= 1
        defer { lastDataVersion = version }
        return version != lastDataVersion
    }
}

extension SQLiteConnection {
    /// `PRAGMA data_version`: changes when another connection commits to the file (used by
    /// the store's row cache and by the remote change watcher's own connection).
    func dataVersion() throws -> Int64? {
        let statement = try cachedStatement("PRAGMA data_version")
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }
}
