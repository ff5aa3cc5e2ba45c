import Foundation

/// Runs the benchmark binary itself as a child process and collects its output.
enum ChildLauncher {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// This executable, resolved through /proc/self/exe (falls back to argv[0]).
    static let executablePath: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()

    /// Runs `command` to completion; returns its standard output. Its standard error
    /// goes straight to ours.
    static func run(_ command: ChildCommand) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
        process.arguments = command.arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)"
                : "was killed by signal \(process.terminationStatus)"
            throw Failure(description: "child \(command.phase.rawValue) \(command.engine.rawValue) \(command.workload.rawValue) \(how)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Prepares a fresh database in a new temporary directory, times the workload in a
    /// second process, removes the directory and returns the measuring child's report.
    static func measure(engine: EngineKind, workload: Workload, rows: Int) throws -> ChildReport {
        let output = try prepareAndRun(.run, engine: engine, workload: workload, rows: rows)
        guard let report = ChildReport.parse(output: output) else {
            throw Failure(description: "child run \(engine.rawValue) \(workload.rawValue) printed no report")
        }
        return report
    }

    /// Prepares W2's fixture (N `Flat` rows) and measures heap bytes per object on it.
    static func measureBytes(rows: Int) throws -> BytesReport {
        let output = try prepareAndRun(.bytes, engine: .ocdKVC, workload: .w2, rows: rows)
        guard let report = BytesReport.parse(output: output) else {
            throw Failure(description: "child bytes printed no report")
        }
        return report
    }

    /// Runs a `prepare` child, then a `phase` child, on a fresh database in a new
    /// temporary directory (removed afterwards); returns the second child's output.
    private static func prepareAndRun(_ phase: ChildCommand.Phase, engine: EngineKind, workload: Workload, rows: Int) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ocd-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bench.sqlite").path
        _ = try run(ChildCommand(phase: .prepare, engine: engine, workload: workload, path: path, rows: rows))
        return try run(ChildCommand(phase: phase, engine: engine, workload: workload, path: path, rows: rows))
    }
}
