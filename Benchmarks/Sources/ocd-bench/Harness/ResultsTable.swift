import Foundation

/// Part (b) of the report: the Markdown table of medians, ratios and peaks.
struct ResultsTable {
    let options: Options
    let results: Results

    private static let measuredEngines = EngineKind.allCases.filter { $0 != .raw }

    func render() -> String {
        var lines = [
            "## Results (median of \(options.passes) pass\(options.passes == 1 ? "" : "es"), seconds; × raw = engine time / raw time)",
            "",
            "| workload | raw s | " + Self.measuredEngines.map { "\($0.rawValue) s (× raw)" }.joined(separator: " | ")
                + " | target (ocd-typed) | peak MiB " + EngineKind.allCases.map(\.rawValue).joined(separator: " / ") + " |",
            "|---|---:|" + String(repeating: "---:|", count: Self.measuredEngines.count) + "---|---|",
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
            guard let peak = judged(workload).flatMap({ results.peakMiB(workload, $0) }) else { return bound }
            return bound + (peak < limit ? " ✅" : " ❌")
        }
        guard let ratio = workload.targetRatio else { return "— (no target; ratios for reference)" }
        let bound = "≤ \(ratio.formatted(.number.precision(.fractionLength(0...1))))×"
        guard let raw, raw > 0, let engine = judged(workload), let ocd = results.medianSeconds(workload, engine) else { return bound }
        return bound + (ocd / raw <= ratio ? " ✅" : " ❌") + (engine == .ocdTyped ? "" : " (\(engine.rawValue))")
    }

    /// The OpenCoreData engine a target is judged on: typed, or KVC where typed did not run.
    private func judged(_ workload: Workload) -> EngineKind? {
        EngineKind.openCoreData.first { results.medianSeconds(workload, $0) != nil }
    }

    private func peak(_ workload: Workload, _ engine: EngineKind) -> String {
        results.peakMiB(workload, engine).map { String(format: "%.0f", $0) } ?? "—"
    }

    static func format(_ seconds: Double) -> String {
        String(format: seconds < 0.1 ? "%.4f" : "%.3f", seconds)
    }
}
