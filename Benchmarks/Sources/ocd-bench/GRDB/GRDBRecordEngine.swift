import GRDB

/// GRDB used the high-level way: Codable `FlatRecord`s, query interface requests,
/// `insert`/`updateChanges`/`delete` per record.
struct GRDBRecordEngine: BenchEngine {
    func prepare(_ workload: Workload, path: String, rows: Int) throws {
        guard workload.runs(on: .grdbRecord) else { throw UnsupportedWorkload(workload: workload, engine: .grdbRecord) }
        try RawFixture.prepare(workload, path: path, rows: rows)
    }

    func run(_ workload: Workload, path: String, rows: Int) throws -> RunOutcome {
        if workload == .w6 || workload == .w6r {
            let ((queue, checksum), seconds) = try Stopwatch.time { try openAndTouch(path: path) }
            return RunOutcome(seconds: seconds, checksum: checksum, pragmas: GRDBSupport.pragmaReport(queue))
        }
        let queue = try GRDBSupport.openQueue(path: path)
        switch workload {
        case .w1:
            let values = FlatDataset.rows(count: rows)
            return try GRDBSupport.timed(queue) {
                try queue.write { db in
                    for row in values { try FlatRecord(row, pk: row.a0 + 1).insert(db) }
                }
                return Int64(values.count)
            }
        case .w2:
            return try GRDBSupport.timed(queue) {
                let records = try queue.read { db in try FlatRecord.fetchAll(db) }
                return records.reduce(0) { $0 &+ $1.values.checksum }
            }
        case .w3:
            return try GRDBSupport.timed(queue) {
                let records = try queue.read { db in
                    try FlatRecord
                        .filter(FlatRecord.CodingKeys.a1 > Schema.w3Threshold)
                        .order(FlatRecord.CodingKeys.a5)
                        .limit(Schema.w3Limit)
                        .fetchAll(db)
                }
                return Checksums.ordered(records.map(\.values))
            }
        case .w4:
            let updates = FlatDataset.updates(count: rows)
            return try GRDBSupport.timed(queue) {
                try queue.write { db in
                    var checksum: Int64 = 0
                    for var record in try FlatRecord.filter(FlatRecord.CodingKeys.a6 == true).fetchAll(db) {
                        let index = Int(record.a0)
                        try record.updateChanges(db) {
                            $0.opt += 1
                            $0.a2 = updates.a2[index]
                            $0.a4 = updates.a4[index]
                        }
                        checksum &+= record.a0
                    }
                    return checksum
                }
            }
        case .w5:
            return try GRDBSupport.timed(queue) {
                try queue.write { db in
                    let records = try FlatRecord.filter(FlatRecord.CodingKeys.a6 == true).fetchAll(db)
                    for record in records { try record.delete(db) }
                    return Int64(records.count)
                }
            }
        case .w8:
            return try GRDBSupport.timed(queue) {
                let records = try queue.read { db in
                    try FlatRecord
                        .filter(FlatRecord.CodingKeys.a4.like(Schema.w8Pattern) || FlatRecord.CodingKeys.a9.like(Schema.w8Pattern))
                        .order(FlatRecord.CodingKeys.a5)
                        .limit(50)
                        .fetchAll(db)
                }
                return Checksums.ordered(records.map(\.values))
            }
        case .w10:
            return try GRDBSupport.timed(queue) {
                try queue.read { db in
                    var sum: Int64 = 0
                    let cursor = try FlatRecord.fetchCursor(db)
                    while let record = try cursor.next() { Checksums.stringSum(record.a4, into: &sum) }
                    return sum
                }
            }
        case .w11:
            return try GRDBSupport.timed(queue) {
                try queue.write { db in Int64(try FlatRecord.deleteAll(db)) }
            }
        case .w12:
            return try GRDBSupport.timed(queue) {
                try queue.write { db in
                    let records = try FlatRecord.fetchAll(db)
                    for record in records { try record.delete(db) }
                    return Int64(records.count)
                }
            }
        case .w6, .w6r, .w7, .w9:
            throw UnsupportedWorkload(workload: workload, engine: .grdbRecord)
        }
    }

    /// W6, timed from opening: all primary keys, then every 100th record by key.
    private func openAndTouch(path: String) throws -> (DatabaseQueue, Int64) {
        let queue = try GRDBSupport.openQueue(path: path)
        let checksum = try queue.read { db in
            let keys = try Int64.fetchAll(db, sql: Schema.selectAllKeys)
            var touched: [String] = []
            for index in stride(from: 0, to: keys.count, by: 100) {
                if let record = try FlatRecord.fetchOne(db, key: keys[index]) { touched.append(record.a4) }
            }
            return Checksums.touched(keyCount: keys.count, values: touched)
        }
        return (queue, checksum)
    }
}
