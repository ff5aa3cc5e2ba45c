import Foundation

/// The ten attribute values of one `Flat` row, as every engine reads and writes them.
struct FlatValues: Sendable, Equatable {
    /// Unique counter (0, 1, 2, …).
    var a0: Int64
    /// Random in 0..<1000 (indexed; W3 filters on it).
    var a1: Int64
    var a2: Double
    var a3: Double
    /// 16 ASCII characters.
    var a4: String
    /// 32 ASCII characters (W3 sorts on it).
    var a5: String
    /// True for every 10th row (the rows W4 changes and W5 deletes).
    var a6: Bool
    /// A date, stored as seconds since 2001-01-01.
    var a7: Date
    /// 16 bytes.
    var a8: Data
    /// 8 ASCII characters.
    var a9: String

    /// A cheap digest of all ten values, summed per workload so that no read can be
    /// optimised away and engines can be checked against each other.
    var checksum: Int64 {
        var sum = a0 &+ a1 &* 31
        sum &+= Int64(bitPattern: a2.bitPattern ^ (a3.bitPattern >> 1) ^ (a7.timeIntervalSinceReferenceDate.bitPattern >> 2))
        sum &+= Int64(a4.utf8.count &+ a5.utf8.count &* 7 &+ a9.utf8.count &* 13 &+ a8.count &* 17)
        sum &+= a6 ? 1_000_003 : 0
        sum &+= Int64(a8.first ?? 0) &* 101
        return sum
    }
}

/// A `Flat` row read back with its primary key.
struct FlatRow: Sendable {
    var pk: Int64
    var values: FlatValues
}
