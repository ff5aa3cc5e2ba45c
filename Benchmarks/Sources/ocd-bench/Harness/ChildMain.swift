import Foundation

/// What a child process does: build a fixture, or time one workload and report it.
enum ChildMain {
    static func run(_ command: ChildCommand) -> Int32 {
        do {
            let engine = command.engine.makeEngine()
            switch command.phase {
            case .prepare:
                try engine.prepare(command.workload, path: command.path, rows: command.rows)
                try StoreInspector.checkpoint(path: command.path)
            case .run:
                let outcome = try engine.run(command.workload, path: command.path, rows: command.rows)
                let peak = ProcessMetrics.peakResidentMiB()
                let report = ChildReport(
                    engine: command.engine.rawValue,
                    workload: command.workload.rawValue,
                    seconds: outcome.seconds,
                    peakMiB: peak,
                    checksum: outcome.checksum,
                    pragmas: outcome.pragmas,
                    inspection: try StoreInspector.inspect(path: command.path, workload: command.workload)
                )
                print(try report.line())
            case .bytes:
                print(try BytesReport.measure(path: command.path, rows: command.rows).line())
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("ocd-bench child \(command.arguments.joined(separator: " ")): \(error)\n".utf8))
            return 1
        }
    }
}
