import Foundation

/// A reproducible random generator (SplitMix64) for randomized tests.
///
/// The seed comes from the environment variable `OCD_SEED` when set, otherwise it is
/// random; tests print it so that a failure can be replayed:
/// `OCD_SEED=1234 swift test --filter DifferentialFetchTests`.
package struct SeededRandom: RandomNumberGenerator {
    package let seed: UInt64
    private var state: UInt64

    package init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from `OCD_SEED` or at random, after printing the seed for `test`.
    package static func fromEnvironment(for test: String) -> SeededRandom {
        let seed = ProcessInfo.processInfo.environment["OCD_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (replay with OCD_SEED=\(seed))")
        return SeededRandom(seed: seed)
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A random element of a non-empty array.
    package mutating func pick<T>(_ elements: [T]) -> T { elements[Int.random(in: elements.indices, using: &self)] }
}
