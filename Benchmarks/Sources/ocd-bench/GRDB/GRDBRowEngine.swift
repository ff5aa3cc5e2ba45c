import Foundation
import GRDB

/// GRDB used the low-level way: SQL, cached statements, `Row` values read by index.
struct GRDBRowEngine: BenchEngine {
    func prepare(_ workload: Workload, path: String, rows: Int) throws {
        guard workload.runs(on: .grdbRow) else { throw UnsupportedWorkload(workload: workload, engine: .grdbRow) }
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
                    let insert = try db.makeStatement(sql: Schema.insertFlat)
                    for row in values {
                        insert.setUncheckedArguments([
                            row.a0 + 1, Schema.entityNumber, 1, row.a0, row.a1, row.a2, row.a3, row.a4, row.a5,
                            row.a6, row.a7.timeIntervalSinceReferenceDate, row.a8, row.a9,
                        ])
                        try insert.execute()
                    }
                }
                return Int64(values.count)
            }
        case .w2:
            return try GRDBSupport.timed(queue) {
                let rows = try queue.read { db in
                    try Self.flatRows(Row.fetchCursor(db, sql: Schema.selectAllFlat))
                }
                return rows.reduce(0) { $0 &+ $1.values.checksum }
            }
        case .w3:
            return try GRDBSupport.timed(queue) {
                let rows = try queue.read { db in
                    try Self.flatRows(Row.fetchCursor(db, sql: Schema.selectW3, arguments: [Schema.w3Threshold]))
                }
                return Checksums.ordered(rows.map(\.values))
            }
        case .w4:
            let updates = FlatDataset.updates(count: rows)
            return try GRDBSupport.timed(queue) {
                try queue.write { db in
                    var targets: [(pk: Int64, opt: Int64, a0: Int64)] = []
                    let cursor = try Row.fetchCursor(db, sql: Schema.selectSelectedForUpdate)
                    while let row = try cursor.next() { targets.append((row[0], row[1], row[2])) }
                    let update = try db.cachedStatement(sql: Schema.updateFlat)
                    var checksum: Int64 = 0
                    for target in targets {
                        let index = Int(target.a0)
                        update.setUncheckedArguments([target.opt + 1, updates.a2[index], updates.a4[index], target.pk])
                        try update.execute()
                        checksum &+= target.a0
                    }
                    return checksum
                }
            }
        case .w5:
            return try GRDBSupport.timed(queue) { try Self.deleteByKey(queue, selecting: Schema.selectSelectedKeys) }
        case .w8:
            return try GRDBSupport.timed(queue) {
                let rows = try queue.read { db in
                    try Self.flatRows(Row.fetchCursor(db, sql: Schema.selectW8, arguments: [Schema.w8Pattern]))
                }
                return Checksums.ordered(rows.map(\.values))
            }
        case .w9:
            return try GRDBSupport.timed(queue) {
                let titles = try queue.read { db in try String.fetchAll(db, sql: Schema.selectW9, arguments: [Schema.w9Prefix]) }
                return Checksums.orderedStrings(titles)
            }
        case .w10:
            return try GRDBSupport.timed(queue) {
                try queue.read { db in
                    var sum: Int64 = 0
                    let cursor = try String.fetchCursor(db, sql: Schema.selectW10)
                    while let value = try cursor.next() { Checksums.stringSum(value, into: &sum) }
                    return sum
                }
            }
        case .w11:
            return try GRDBSupport.timed(queue) {
                try queue.write { db in
                    let count = try Int64.fetchOne(db, sql: "SELECT count(*) FROM ZFLAT") ?? 0
                    try db.execute(sql: Schema.deleteAllFlat)
                    return count
                }
            }
        case .w12:
            return try GRDBSupport.timed(queue) { try Self.deleteByKey(queue, selecting: Schema.selectAllKeys) }
        case .w6, .w6r, .w7:
            throw UnsupportedWorkload(workload: workload, engine: .grdbRow)
        }
    }

    /// The keys `selectKeys` returns, then a cached `DELETE` by key per row, in one transaction.
    private static func deleteByKey(_ queue: DatabaseQueue, selecting selectKeys: String) throws -> Int64 {
        try queue.write { db in
            let keys = try Int64.fetchAll(db, sql: selectKeys)
            let delete = try db.cachedStatement(sql: Schema.deleteFlat)
            for key in keys {
                delete.setUncheckedArguments([key])
                try delete.execute()
            }
            return Int64(keys.count)
        }
    }

    /// Reads every row of a `Schema.selectAllFlat` cursor into structs.
    private static func flatRows(_ cursor: RowCursor) throws -> [FlatRow] {
        var rows: [FlatRow] = []
        while let row = try cursor.next() { rows.append(flatRow(row)) }
        return rows
    }

    /// Reads a row of `Schema.selectAllFlat` (Z_PK, ZA0…ZA9) by column index.
    private static func flatRow(_ row: Row) -> FlatRow {
        FlatRow(pk: row[0], values: FlatValues(
            a0: row[1], a1: row[2], a2: row[3], a3: row[4], a4: row[5], a5: row[6], a6: row[7],
            a7: Date(timeIntervalSinceReferenceDate: row[8]), a8: row[9], a9: row[10]
        ))
    }

    /// W6, timed from opening: all primary keys, then every 100th row by key.
    private func openAndTouch(path: String) throws -> (DatabaseQueue, Int64) {
        let queue = try GRDBSupport.openQueue(path: path)
        let checksum = try queue.read { db in
            let keys = try Int64.fetchAll(db, sql: Schema.selectAllKeys)
            let select = try db.cachedStatement(sql: Schema.selectFlatByPK)
            var touched: [String] = []
            for index in stride(from: 0, to: keys.count, by: 100) {
                if let row = try Row.fetchOne(select, arguments: [keys[index]]) {
                    touched.append(Self.flatRow(row).values.a4)
                }
            }
            return Checksums.touched(keyCount: keys.count, values: touched)
        }
        return (queue, checksum)
    }
}
