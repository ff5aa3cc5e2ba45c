import Foundation

/// The machine-readable line a measuring child prints, one per (engine, workload, pass).
struct ChildReport: Codable, Sendable {
    static let linePrefix = "OCDBENCH-RESULT "

    var engine: String
    var workload: String
    /// Seconds of the timed part only.
    var seconds: Double
    /// Peak resident set size of the whole child process (`VmHWM`), in MiB.
    var peakMiB: Double?
    var checksum: Int64
    /// Pragmas read back from the engine's connection (empty when not observable).
    var pragmas: [String: String]
    /// What the file holds after the workload, read through a separate connection.
    var inspection: StoreInspector.Inspection

    func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Self.linePrefix + String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The report in a child's output, if it printed one.
    static func parse(output: String) -> ChildReport? {
        for line in output.split(separator: "\n") where line.hasPrefix(linePrefix) {
            return try? JSONDecoder().decode(ChildReport.self, from: Data(line.dropFirst(linePrefix.count).utf8))
        }
        return nil
    }
}

/// The hidden command line of a child: `--child prepare|run|bytes ENGINE WORKLOAD PATH ROWS`.
struct ChildCommand: Sendable {
    static let flag = "--child"

    /// `bytes` measures `BytesReport` on a prepared fixture instead of timing a workload.
    enum Phase: String, Sendable { case prepare, run, bytes }

    var phase: Phase
    var engine: EngineKind
    var workload: Workload
    var path: String
    var rows: Int

    var arguments: [String] {
        [Self.flag, phase.rawValue, engine.rawValue, workload.rawValue, path, String(rows)]
    }

    init(phase: Phase, engine: EngineKind, workload: Workload, path: String, rows: Int) {
        self.phase = phase
        self.engine = engine
        self.workload = workload
        self.path = path
        self.rows = rows
    }

    /// Parses the arguments that follow the program name; nil when they are not a child's.
    init?(arguments: [String]) {
        guard arguments.count == 6, arguments[0] == Self.flag,
              let phase = Phase(rawValue: arguments[1]),
              let engine = EngineKind(rawValue: arguments[2]),
              let workload = Workload(rawValue: arguments[3]),
              let rows = Int(arguments[5]) else { return nil }
        self.init(phase: phase, engine: engine, workload: workload, path: arguments[4], rows: rows)
    }
}
