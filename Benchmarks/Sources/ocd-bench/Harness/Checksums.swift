/// Digests that make every engine's reads observable and comparable.
enum Checksums {
    /// Order-sensitive digest of fetched rows (W3 also checks the sort order).
    static func ordered(_ rows: [FlatValues]) -> Int64 {
        rows.reduce(Int64(0)) { $0 &* 31 &+ $1.checksum }
    }

    /// Digest of W6: how many keys were fetched and the length of the one attribute read
    /// per touched row (independent of the fetch order, which engines may choose).
    static func touched(keyCount: Int, values: [String]) -> Int64 {
        values.reduce(Int64(keyCount) &* 1_000_000) { $0 &+ Int64($1.utf8.count) }
    }
}
