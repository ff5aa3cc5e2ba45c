/// The settings each engine's connection is checked for after its workload.
enum PragmaReport {
    /// Queries whose single result is reported, by name.
    static let queries: [(name: String, sql: String)] = [
        ("sqlite_version", "SELECT sqlite_version()"),
        ("journal_mode", "PRAGMA journal_mode"),
        ("synchronous", "PRAGMA synchronous"),
        ("page_size", "PRAGMA page_size"),
        ("cache_size", "PRAGMA cache_size"),
        ("wal_autocheckpoint", "PRAGMA wal_autocheckpoint"),
    ]
}

extension SQLiteConnection {
    /// The values of `PragmaReport.queries` on this connection.
    func pragmaReport() -> [String: String] {
        var report: [String: String] = [:]
        for query in PragmaReport.queries {
            report[query.name] = (try? scalarText(query.sql)) ?? "?"
        }
        return report
    }

    /// Sets the pinned pragmas (WAL, synchronous FULL); page and cache sizes stay default.
    func applyPinnedPragmas() throws {
        for pragma in Schema.pragmas { try execute(pragma) }
    }
}
