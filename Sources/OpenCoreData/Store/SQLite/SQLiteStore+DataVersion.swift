import Foundation

extension SQLiteStore {
    /// Whether another connection committed to the file since the last call:
    /// `PRAGMA data_version` changes exactly then, and not for this connection's own
    /// commits (<https://sqlite.org/pragma.html#pragma_data_version>). A check of the
    /// row cache, not a read of rows: it is left out of `executedStatementCount` and
    /// `steppedRowCount`.
    func hasExternalChanges() throws -> Bool {
        let statement = try connection.cachedStatement("PRAGMA data_version")
        defer { statement.reset() }
        guard try statement.step() else { return false }
        connection.executedStatementCount &-= 1
        connection.steppedRowCount &-= 1
        let version = statement.int64(0)
        defer { lastDataVersion = version }
        return version != lastDataVersion
    }
}
