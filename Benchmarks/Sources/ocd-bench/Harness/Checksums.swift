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

    /// Order-sensitive digest of strings (W9's titles), by their bytes.
    static func orderedStrings(_ values: [String]) -> Int64 {
        var hash = FNV1a()
        for value in values {
            for byte in value.utf8 { hash.add(UInt64(byte)) }
            hash.add(0xFF)
        }
        return Int64(bitPattern: hash.value)
    }

    /// Order-independent digest of one string per row (W10's walk), cheap enough not to
    /// weigh on the timing: length, first and last byte of each.
    @inline(__always)
    static func stringSum(_ value: String, into sum: inout Int64) {
        let bytes = value.utf8
        sum &+= Int64(bytes.count) &+ Int64(bytes.first ?? 0) &* 257 &+ Int64(bytes.last ?? 0) &* 65_537
    }
}
