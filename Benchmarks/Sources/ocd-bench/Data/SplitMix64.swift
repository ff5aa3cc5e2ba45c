/// A tiny seeded pseudo-random generator (SplitMix64): every engine gets the same
/// values for the same seed, on every machine and every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`.
    mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }

    /// A string of `count` ASCII letters and digits.
    mutating func asciiString(count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            bytes[index] = alphabet[Int(below(UInt64(alphabet.count)))]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `count` random bytes.
    mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
