/// Looks at a database file after an engine is done with it, through a separate
/// connection: what it holds (to check engines stored the same data) and how it is set up.
enum StoreInspector {
    struct Inspection: Codable, Sendable {
        /// Rows in the workload's table (`ZFLAT` or `ZITEM`), -1 when it is missing.
        var rowCount: Int64
        /// FNV-1a digest of `ZA0…ZA9` of every `ZFLAT` row in `ZA0` order ("" for `ZITEM`).
        var contentHash: String
        /// The file's journal mode (WAL is recorded in the file itself) and page size.
        var journalMode: String
        var pageSize: String
    }

    static func inspect(path: String, workload: Workload) throws -> Inspection {
        let db = try SQLiteConnection(path: path)
        let table = workload.usesItemTree ? "ZITEM" : "ZFLAT"
        let exists = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table) > 0
        return Inspection(
            rowCount: exists ? try db.scalarInt("SELECT count(*) FROM \(table)") : -1,
            contentHash: exists && !workload.usesItemTree ? try flatHash(db) : "",
            journalMode: try db.scalarText("PRAGMA journal_mode") ?? "?",
            pageSize: try db.scalarText("PRAGMA page_size") ?? "?"
        )
    }

    /// Moves everything from the WAL into the database file and empties the WAL, so
    /// that every engine's timed process starts from the same on-disk state.
    static func checkpoint(path: String) throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Hashes values as the type each column should hold (not by storage class, which
    /// depends on declared column types), so that a different value shows up.
    private static func flatHash(_ db: SQLiteConnection) throws -> String {
        let select = try db.prepare("SELECT \(Schema.flatColumnList) FROM ZFLAT ORDER BY ZA0")
        var hash = FNV1a()
        while try select.step() {
            for column: Int32 in 0..<10 {
                hash.add(select.isNull(column) ? 0 : 1)
                switch column {
                case 2, 3, 7: hash.add(select.double(column).bitPattern)
                case 4, 5, 8, 9: hash.add(select.bytes(column))
                default: hash.add(UInt64(bitPattern: select.int64(column)))
                }
            }
        }
        return String(hash.value, radix: 16)
    }
}

/// 64-bit FNV-1a.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        add(UInt64(bytes.count))
    }

    mutating func add(_ word: UInt64) {
        var word = word
        withUnsafeBytes(of: &word) { bytes in
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
    }
}
