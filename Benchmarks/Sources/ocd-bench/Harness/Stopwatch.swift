/// Measures one interval on the monotonic clock (`ContinuousClock`).
struct Stopwatch {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    init() { start = clock.now }

    /// Seconds since `init`.
    var seconds: Double {
        let elapsed = clock.now - start
        let (whole, attoseconds) = elapsed.components
        return Double(whole) + Double(attoseconds) * 1e-18
    }

    /// Times `body` and returns its result with the seconds it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let stopwatch = Stopwatch()
        let value = try timedSection(body)
        return (value, stopwatch.seconds)
    }

    /// Runs the timed `body`: never inlined, so that `profile.sh` can restrict callgrind
    /// to it (`--toggle-collect=*timedSection*`).
    @inline(never)
    static func timedSection<T>(_ body: () throws -> T) rethrows -> T {
        try body()
    }
}
