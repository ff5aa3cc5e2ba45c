import Foundation

/// The deterministic contents of the `Flat` table and of W4's changes.
enum FlatDataset {
    static let seed: UInt64 = 0x0CD_BE7C_2001
    static let updateSeed: UInt64 = 0x0CD_0000_0004

    /// Sizes of the variable-length values, printed in the pinned setup.
    static let a4Length = 16
    static let a5Length = 32
    static let a8Length = 16
    static let a9Length = 8

    /// Row `i` has `a0 == i`; rows are generated in order from one seeded stream.
    static func rows(count: Int) -> [FlatValues] {
        var random = SplitMix64(seed: seed)
        var rows: [FlatValues] = []
        rows.reserveCapacity(count)
        for index in 0..<count {
            rows.append(FlatValues(
                a0: Int64(index),
                a1: Int64(random.below(1000)),
                a2: Double(random.below(100_000_000)) / 1000,
                a3: Double(random.below(1_000_000)) / 7,
                a4: random.asciiString(count: a4Length),
                a5: random.asciiString(count: a5Length),
                a6: index % 10 == 0,
                a7: Date(timeIntervalSinceReferenceDate: Double(random.below(800_000_000_000)) / 1000),
                a8: Data(random.bytes(count: a8Length)),
                a9: random.asciiString(count: a9Length)
            ))
        }
        return rows
    }

    /// Whether W4 changes (and W5 deletes) the row whose counter is `a0`.
    static func isSelected(a0: Int64) -> Bool { a0 % 10 == 0 }

    /// W4's new `a2` and `a4` values, indexed by `a0` (filled for selected rows only).
    struct Updates: Sendable {
        let a2: [Double]
        let a4: [String]
    }

    static func updates(count: Int) -> Updates {
        var random = SplitMix64(seed: updateSeed)
        var a2 = [Double](repeating: 0, count: count)
        var a4 = [String](repeating: "", count: count)
        for index in stride(from: 0, to: count, by: 10) {
            a2[index] = Double(random.below(100_000_000)) / 1000
            a4[index] = random.asciiString(count: a4Length)
        }
        return Updates(a2: a2, a4: a4)
    }
}
