import Foundation
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// The oracle for stores written by `ocd-torture`: the store reopens with a fresh
/// coordinator, the file is sound, and its content is whole.
enum TortureChecks {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Opens the store as a new process would (a fresh coordinator), reads every entity,
    /// closes it, and checks `PRAGMA integrity_check`.
    static func reopenAndCheckIntegrity(_ path: String) throws {
        let stack = try TortureStack(path: path)
        try stack.context.performAndWait {
            for entity in ["Record", "Ledger", "Counter", "Item"] { _ = try stack.fetch(entity).count }
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        let integrity = try StoreOracle(path: path).integrityCheck()
        guard integrity == ["ok"] else { throw Failure(description: "integrity_check: \(integrity)") }
    }

    /// Checks that every batch of records is whole (all `batchSize` rows, right
    /// positions and checksums), that batches run 1…n without a gap, and that the
    /// ledger agrees. Returns n, the last batch in the store.
    static func wholeBatches(_ path: String, batchSize: Int) throws -> Int64 {
        let oracle = StoreOracle(path: path)
        let rows = try oracle.integers("SELECT ZBATCH, ZPOSITION, ZCHECKSUM FROM ZRECORD ORDER BY ZBATCH, ZPOSITION")
        var batches: [Int64: [Int64]] = [:]
        for row in rows {
            guard row[2] == TortureModel.checksum(batch: row[0], position: row[1]) else {
                throw Failure(description: "record \(row[0])/\(row[1]) has a wrong checksum \(row[2])")
            }
            batches[row[0], default: []].append(row[1])
        }
        let last = batches.keys.max() ?? 0
        for batch in 1..<(last + 1) {
            let positions = batches[batch] ?? []
            guard positions == Array(0..<Int64(batchSize)) else {
                throw Failure(description: "batch \(batch) is partial: \(positions.count) of \(batchSize) records")
            }
        }
        guard batches.count == Int(last) else { throw Failure(description: "batches are not 1…\(last): \(batches.keys.sorted())") }
        let ledger = try oracle.integers("SELECT ZLASTBATCH, ZRECORDS FROM ZLEDGER")
        let expected: [[Int64]] = last == 0 ? [] : [[last, Int64(rows.count)]]
        guard ledger == expected else {
            throw Failure(description: "ledger \(ledger) does not match \(last) batches of \(rows.count) records")
        }
        return last
    }

    /// Items of `group` in the store.
    static func items(_ path: String, group: String) throws -> Int {
        Int(try StoreOracle(path: path).integer("SELECT count(*) FROM ZITEM WHERE ZGROUP = '\(group)'"))
    }

    /// Items whose parent row is gone.
    static func orphans(_ path: String) throws -> Int {
        Int(try StoreOracle(path: path).integer(
            "SELECT count(*) FROM ZITEM c WHERE c.ZPARENT IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ZITEM p WHERE p.Z_PK = c.ZPARENT)"))
    }
}
