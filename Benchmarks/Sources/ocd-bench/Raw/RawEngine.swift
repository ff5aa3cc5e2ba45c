/// Hand-written SQLite through the C API: prepared statements, bound parameters,
/// values read straight into Swift structs. The reference every ratio divides by.
struct RawEngine: BenchEngine {
    func prepare(_ workload: Workload, path: String, rows: Int) throws {
        try RawFixture.prepare(workload, path: path, rows: rows)
    }

    func run(_ workload: Workload, path: String, rows: Int) throws -> RunOutcome {
        if workload == .w6 || workload == .w6r {
            let (result, seconds) = try Stopwatch.time { try openAndTouch(path: path) }
            return RunOutcome(seconds: seconds, checksum: result.checksum, pragmas: result.db.pragmaReport())
        }
        let db = try SQLiteConnection(path: path)
        try db.applyPinnedPragmas()
        let body: () throws -> Int64
        switch workload {
        case .w1:
            let values = FlatDataset.rows(count: rows)
            body = { try insert(values, into: db) }
        case .w2: body = { try fetchAll(db) }
        case .w3: body = { try fetchFilteredSorted(db) }
        case .w4:
            let updates = FlatDataset.updates(count: rows)
            body = { try change(db, updates: updates) }
        case .w5: body = { try delete(db) }
        case .w7: body = { try deleteSubtree(db) }
        case .w8: body = { try fetchCompound(db) }
        case .w9: body = { try fetchToMany(db) }
        case .w10: body = { try walk(db) }
        case .w11: body = { try deleteAll(db) }
        case .w12: body = { try deleteEach(db) }
        case .w6, .w6r: fatalError("handled above")
        }
        let (checksum, seconds) = try Stopwatch.time(body)
        return RunOutcome(seconds: seconds, checksum: checksum, pragmas: db.pragmaReport())
    }

    // W1
    private func insert(_ values: [FlatValues], into db: SQLiteConnection) throws -> Int64 {
        try db.execute("BEGIN")
        let insert = try db.prepare(Schema.insertFlat)
        for row in values {
            insert.bindFlat(row, pk: row.a0 + 1, opt: 1)
            try insert.run()
        }
        try db.execute("COMMIT")
        return Int64(values.count)
    }

    // W2
    private func fetchAll(_ db: SQLiteConnection) throws -> Int64 {
        let select = try db.prepare(Schema.selectAllFlat)
        var rows: [FlatRow] = []
        while try select.step() { rows.append(select.flatRow()) }
        return rows.reduce(0) { $0 &+ $1.values.checksum }
    }

    // W3
    private func fetchFilteredSorted(_ db: SQLiteConnection) throws -> Int64 {
        let select = try db.prepare(Schema.selectW3)
        select.bind(Schema.w3Threshold, at: 1)
        var rows: [FlatRow] = []
        while try select.step() { rows.append(select.flatRow()) }
        return Checksums.ordered(rows.map(\.values))
    }

    // W4
    private func change(_ db: SQLiteConnection, updates: FlatDataset.Updates) throws -> Int64 {
        try db.execute("BEGIN")
        let select = try db.prepare(Schema.selectSelectedForUpdate)
        var targets: [(pk: Int64, opt: Int64, a0: Int64)] = []
        while try select.step() { targets.append((select.int64(0), select.int64(1), select.int64(2))) }
        let update = try db.prepare(Schema.updateFlat)
        var checksum: Int64 = 0
        for target in targets {
            let index = Int(target.a0)
            update.bind(target.opt + 1, at: 1)
            update.bind(updates.a2[index], at: 2)
            update.bind(updates.a4[index], at: 3)
            update.bind(target.pk, at: 4)
            try update.run()
            checksum &+= target.a0
        }
        try db.execute("COMMIT")
        return checksum
    }

    // W5
    private func delete(_ db: SQLiteConnection) throws -> Int64 {
        try deleteByKey(db, selecting: Schema.selectSelectedKeys)
    }

    /// The keys `selectKeys` returns, then a prepared `DELETE` by key per row, in one transaction.
    private func deleteByKey(_ db: SQLiteConnection, selecting selectKeys: String) throws -> Int64 {
        try db.execute("BEGIN")
        let select = try db.prepare(selectKeys)
        var keys: [Int64] = []
        while try select.step() { keys.append(select.int64(0)) }
        let delete = try db.prepare(Schema.deleteFlat)
        for key in keys {
            delete.bind(key, at: 1)
            try delete.run()
        }
        try db.execute("COMMIT")
        return Int64(keys.count)
    }

    // W6 (timed from opening)
    private func openAndTouch(path: String) throws -> (db: SQLiteConnection, checksum: Int64) {
        let db = try SQLiteConnection(path: path)
        try db.applyPinnedPragmas()
        let keysStatement = try db.prepare(Schema.selectAllKeys)
        var keys: [Int64] = []
        while try keysStatement.step() { keys.append(keysStatement.int64(0)) }
        let select = try db.prepare(Schema.selectFlatByPK)
        var touched: [String] = []
        for index in stride(from: 0, to: keys.count, by: 100) {
            select.bind(keys[index], at: 1)
            guard try select.step() else { continue }
            touched.append(select.flatRow().values.a4)
            select.reset()
        }
        return (db, Checksums.touched(keyCount: keys.count, values: touched))
    }

    // W7 (reference only): one recursive-CTE delete, as a hand-written app would do it.
    private func deleteSubtree(_ db: SQLiteConnection) throws -> Int64 {
        try db.execute("BEGIN")
        let bump = try db.prepare(Schema.bumpSubtreeParent)
        bump.bind(ItemTree.deletedTitle, at: 1)
        try bump.run()
        let delete = try db.prepare(Schema.deleteSubtree)
        delete.bind(ItemTree.deletedTitle, at: 1)
        try delete.run()
        try db.execute("COMMIT")
        return 0
    }

    // W8
    private func fetchCompound(_ db: SQLiteConnection) throws -> Int64 {
        let select = try db.prepare(Schema.selectW8)
        select.bind(Schema.w8Pattern, at: 1)
        var rows: [FlatRow] = []
        while try select.step() { rows.append(select.flatRow()) }
        return Checksums.ordered(rows.map(\.values))
    }

    // W9
    private func fetchToMany(_ db: SQLiteConnection) throws -> Int64 {
        let select = try db.prepare(Schema.selectW9)
        select.bind(Schema.w9Prefix, at: 1)
        var titles: [String] = []
        while try select.step() { titles.append(select.text(0)) }
        return Checksums.orderedStrings(titles)
    }

    // W10: one streaming SELECT, nothing kept.
    private func walk(_ db: SQLiteConnection) throws -> Int64 {
        let select = try db.prepare(Schema.selectW10)
        var sum: Int64 = 0
        while try select.step() { Checksums.stringSum(select.text(0), into: &sum) }
        return sum
    }

    // W11: one DELETE.
    private func deleteAll(_ db: SQLiteConnection) throws -> Int64 {
        try db.execute("BEGIN")
        let count = try db.scalarInt("SELECT count(*) FROM ZFLAT")
        try db.execute(Schema.deleteAllFlat)
        try db.execute("COMMIT")
        return count
    }

    // W12: as W5, for every row.
    private func deleteEach(_ db: SQLiteConnection) throws -> Int64 {
        try deleteByKey(db, selecting: Schema.selectAllKeys)
    }
}
