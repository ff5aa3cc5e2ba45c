import Foundation

/// Part (b) of the report: the Markdown table of medians, ratios and peaks.
struct ResultsTable {
    let options: Options
    let results: Results

    private static let measuredEngines: [EngineKind] = [.grdbRecord, .grdbRow, .ocd]

    func render() -> String {
        var lines = [
            "## Results (median of \(options.passes) pass\(options.passes == 1 ? "" : "es"), seconds; × raw = engine time / raw time)",
            "",
            "| workload | raw s | grdb-record s (× raw) | grdb-row s (× raw) | ocd s (× raw) | target (ocd) | peak MiB raw / grdb-record / grdb-row / ocd |",
            "|---|---:|---:|---:|---:|---|---|",
        ]
        for workload in options.workloads {
            let raw = results.medianSeconds(workload, .raw)
            var cells = ["\(workload.rawValue) \(workload.title)", cell(workload, .raw, raw: nil)]
            cells += Self.measuredEngines.map { cell(workload, $0, raw: workload == .w7 ? nil : raw) }
            cells.append(target(workload, raw: raw))
            cells.append(EngineKind.allCases.map { peak(workload, $0) }.joined(separator: " / "))
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// One engine's median, with its ratio to raw when `raw` is given.
    private func cell(_ workload: Workload, _ engine: EngineKind, raw: Double?) -> String {
        if let seconds = results.medianSeconds(workload, engine) {
            guard let raw, raw > 0 else { return Self.format(seconds) }
            return "\(Self.format(seconds)) (\(String(format: "%.2f", seconds / raw))×)"
        }
        if results.error(workload, engine) != nil { return "error" }
        if !workload.runs(on: engine) { return "n/a" }
        return "—"
    }

    private func target(_ workload: Workload, raw: Double?) -> String {
        if let limit = workload.targetPeakMiB {
            let bound = "peak < \(Int(limit)) MiB"
            guard let peak = results.peakMiB(workload, .ocd) else { return bound }
            return bound + (peak < limit ? " ✅" : " ❌")
        }
        guard let ratio = workload.targetRatio else { return "— (no target; ratios for reference)" }
        let bound = "≤ \(ratio.formatted(.number.precision(.fractionLength(0...1))))×"
        guard let raw, raw > 0, let ocd = results.medianSeconds(workload, .ocd) else { return bound }
        return bound + (ocd / raw <= ratio ? " ✅" : " ❌")
    }

    private func peak(_ workload: Workload, _ engine: EngineKind) -> String {
        results.peakMiB(workload, engine).map { String(format: "%.0f", $0) } ?? "—"
    }

    static func format(_ seconds: Double) -> String {
        String(format: seconds < 0.1 ? "%.4f" : "%.3f", seconds)
    }
}
