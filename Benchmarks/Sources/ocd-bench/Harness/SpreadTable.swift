/// The fastest and slowest pass of each (workload, engine), to judge the noise behind
/// the medians (the machine may be shared).
struct SpreadTable {
    let options: Options
    let results: Results

    func render() -> String {
        var lines = [
            "### Spread over passes (min – max seconds)",
            "",
            "| workload | " + EngineKind.allCases.map(\.rawValue).joined(separator: " | ") + " |",
            "|---" + String(repeating: "|---:", count: EngineKind.allCases.count) + "|",
        ]
        for workload in options.workloads {
            let cells = EngineKind.allCases.map { engine -> String in
                let seconds = results.reports(workload, engine).map(\.seconds)
                guard let low = seconds.min(), let high = seconds.max() else { return "—" }
                return "\(ResultsTable.format(low)) – \(ResultsTable.format(high))"
            }
            lines.append("| \(workload.rawValue) | " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
