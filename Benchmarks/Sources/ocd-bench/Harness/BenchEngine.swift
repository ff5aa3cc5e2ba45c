/// What a child process reports about one timed workload.
struct RunOutcome: Sendable {
    /// Seconds spent in the timed part only.
    var seconds: Double
    /// A digest of what the workload read or changed, equal across correct engines.
    var checksum: Int64
    /// Pragmas read back from the engine's own connection (empty when not observable).
    var pragmas: [String: String] = [:]
}

/// One way of storing the benchmark's data. Both methods run in a fresh process:
/// `prepare` builds the starting database (never timed), then a second process
/// calls `run`, which times only the workload itself with a monotonic clock.
protocol BenchEngine {
    func prepare(_ workload: Workload, path: String, rows: Int) throws
    func run(_ workload: Workload, path: String, rows: Int) throws -> RunOutcome
}

/// A workload an engine does not implement.
struct UnsupportedWorkload: Error, CustomStringConvertible {
    let workload: Workload
    let engine: EngineKind
    var description: String { "\(engine.rawValue) does not run \(workload.rawValue)" }
}
