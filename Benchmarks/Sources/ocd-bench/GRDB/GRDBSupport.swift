import GRDB

/// What both GRDB engines share: the connection set-up and its pragma report.
enum GRDBSupport {
    /// A `DatabaseQueue` on `path` with the pinned pragmas (WAL, synchronous FULL).
    /// `journalMode` stays `.default`: GRDB's `.wal` would lower synchronous to NORMAL.
    static func openQueue(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            for pragma in Schema.pragmas { try db.execute(sql: pragma) }
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The values of `PragmaReport.queries` on the queue's connection.
    static func pragmaReport(_ queue: DatabaseQueue) -> [String: String] {
        queue.inDatabase { db in
            var report: [String: String] = [:]
            for query in PragmaReport.queries {
                let value = try? DatabaseValue.fetchOne(db, sql: query.sql)
                report[query.name] = value.map { "\($0.storage.value.map { "\($0)" } ?? "NULL")" } ?? "?"
            }
            return report
        }
    }

    /// Times `body` (the workload) and returns it with the pragma report.
    static func timed(_ queue: DatabaseQueue, _ body: () throws -> Int64) rethrows -> RunOutcome {
        let (checksum, seconds) = try Stopwatch.time(body)
        return RunOutcome(seconds: seconds, checksum: checksum, pragmas: pragmaReport(queue))
    }
}
