import Foundation

/// Builds the starting databases of the raw and GRDB engines with plain SQL, so that
/// they hold exactly the same rows as OpenCoreData's (checked by `StoreInspector`).
enum RawFixture {
    static func prepare(_ workload: Workload, path: String, rows: Int) throws {
        let db = try SQLiteConnection(path: path)
        try db.applyPinnedPragmas()
        if workload.usesItemTree {
            try db.execute(Schema.createItem)
            try db.execute(Schema.createItemIndex)
            try insertItems(into: db)
        } else {
            try db.execute(Schema.createFlat)
            try db.execute(Schema.createFlatIndex)
            if workload.needsFlatRows {
                try insertFlat(FlatDataset.rows(count: workload.flatRowCount(rows)), into: db)
            }
        }
    }

    /// Inserts `rows` with `Z_PK = a0 + 1` in one transaction.
    static func insertFlat(_ rows: [FlatValues], into db: SQLiteConnection) throws {
        try db.execute("BEGIN")
        let insert = try db.prepare(Schema.insertFlat)
        for row in rows {
            insert.bindFlat(row, pk: row.a0 + 1, opt: 1)
            try insert.run()
        }
        try db.execute("COMMIT")
    }

    static func insertItems(into db: SQLiteConnection) throws {
        try db.execute("BEGIN")
        let insert = try db.prepare(Schema.insertItem)
        for node in ItemTree.nodes() {
            insert.bind(node.pk, at: 1)
            insert.bind(Schema.entityNumber, at: 2)
            insert.bind(node.order, at: 3)
            if let parent = node.parentPK { insert.bind(parent, at: 4) } else { insert.bindNull(at: 4) }
            insert.bind(node.title, at: 5)
            try insert.run()
        }
        try db.execute("COMMIT")
    }
}

extension SQLiteStatement {
    /// Binds `Schema.insertFlat`'s 13 parameters.
    @inline(__always)
    func bindFlat(_ row: FlatValues, pk: Int64, opt: Int64) {
        bind(pk, at: 1)
        bind(Schema.entityNumber, at: 2)
        bind(opt, at: 3)
        bind(row.a0, at: 4)
        bind(row.a1, at: 5)
        bind(row.a2, at: 6)
        bind(row.a3, at: 7)
        bind(row.a4, at: 8)
        bind(row.a5, at: 9)
        bind(row.a6, at: 10)
        bind(row.a7.timeIntervalSinceReferenceDate, at: 11)
        bind(row.a8, at: 12)
        bind(row.a9, at: 13)
    }

    /// Reads a row of `Schema.selectAllFlat` (Z_PK, ZA0…ZA9).
    @inline(__always)
    func flatRow() -> FlatRow {
        FlatRow(pk: int64(0), values: FlatValues(
            a0: int64(1), a1: int64(2), a2: double(3), a3: double(4),
            a4: text(5), a5: text(6), a6: bool(7),
            a7: Date(timeIntervalSinceReferenceDate: double(8)),
            a8: data(9), a9: text(10)
        ))
    }
}
