/// Part (c) of the report: whether every engine read and stored the same data.
struct ChecksReport {
    let options: Options
    let results: Results

    func render() -> String {
        var lines = ["## Checks", ""]
        for workload in options.workloads {
            let runs = EngineKind.allCases.flatMap { engine in results.reports(workload, engine).map { (engine, $0) } }
            var problems: [String] = []
            let expected = expectedRowCount(workload)
            for (engine, report) in runs where report.inspection.rowCount != expected {
                problems.append("\(engine.rawValue) left \(report.inspection.rowCount) rows, expected \(expected)")
            }
            for (engine, report) in runs where report.inspection.journalMode.lowercased() != "wal" {
                problems.append("\(engine.rawValue) file journal_mode is \(report.inspection.journalMode)")
            }
            let signatures = Dictionary(grouping: runs) { signature(workload, $0.1) }
            if signatures.count > 1 {
                let variants = signatures.map { key, group in
                    "\(Set(group.map(\.0.rawValue)).sorted().joined(separator: ",")): \(key)"
                }
                problems.append("engines disagree: " + variants.sorted().joined(separator: "; "))
            }
            let summary = signatures.keys.first.map { " (\($0))" } ?? ""
            if runs.isEmpty {
                lines.append("- \(workload.rawValue): no runs")
            } else if problems.isEmpty {
                lines.append("- \(workload.rawValue): ✅ every run of \(Set(runs.map(\.0.rawValue)).sorted().joined(separator: ", ")) agrees\(summary)")
            } else {
                lines.append("- \(workload.rawValue): ❌ " + problems.joined(separator: "; "))
            }
            for engine in EngineKind.allCases {
                if let error = results.error(workload, engine) {
                    lines.append("  - \(engine.rawValue) failed: \(error)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What must be equal across engines: the read/changed digest and what the file holds.
    /// W7's raw reference has no object digest, so only the file is compared there.
    private func signature(_ workload: Workload, _ report: ChildReport) -> String {
        let file = "rows \(report.inspection.rowCount)" + (report.inspection.contentHash.isEmpty ? "" : ", content \(report.inspection.contentHash)")
        return workload == .w7 ? file : "checksum \(report.checksum), \(file)"
    }

    private func expectedRowCount(_ workload: Workload) -> Int64 {
        let rows = Int64(options.rows)
        switch workload {
        case .w1, .w2, .w3, .w4, .w6, .w6r, .w8: return rows
        case .w5: return rows - (rows + 9) / 10
        case .w7: return Int64(ItemTree.totalCount - ItemTree.subtreeSize)
        case .w9: return Int64(ItemTree.totalCount)
        case .w10: return Int64(Workload.w10.flatRowCount(options.rows))
        case .w11, .w12: return 0
        }
    }
}
