/// SplitMix64's finaliser: a fast, well-distributed 64-bit mix, for the custom
/// `_rawHashValue(seed:)` of the keys on hot paths (object IDs, the identity map).
enum HashMixing {
    @inline(__always)
    static func mix(_ value: UInt64, seed: Int) -> Int {
        var bits = value ^ UInt64(bitPattern: Int64(seed))
        bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(bitPattern: UInt(truncatingIfNeeded: bits ^ (bits >> 31)))
    }
}
