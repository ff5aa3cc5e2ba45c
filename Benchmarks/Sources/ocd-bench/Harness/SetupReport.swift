import Foundation

/// Part (a) of the report: everything pinned about the run, with the pragmas each
/// engine's connection actually had.
struct SetupReport {
    let options: Options
    let results: Results
    /// The machine's load averages around the run (other work on a shared machine adds noise).
    let loadAverages: String

    func render() -> String {
        var lines = ["## Pinned setup", ""]
        lines.append("- Machine: \(Self.cpuModel()), \(ProcessInfo.processInfo.activeProcessorCount) cores; \(ProcessInfo.processInfo.operatingSystemVersionString). Release build; one measuring process at a time. Load averages (1/5/15 min): \(loadAverages).")
        lines.append("- SQLite: \(SQLiteConnection.libraryVersion) (the system libsqlite3, linked by raw, GRDB 7.10.0 and OpenCoreData alike).")
        lines.append("- Pragmas set by every engine: `journal_mode = WAL`, `synchronous = FULL`; page size, cache size and WAL auto-checkpoint left at SQLite's defaults. Read back after each workload:")
        lines.append("")
        lines.append(contentsOf: pragmaTable())
        lines.append("")
        lines.append("- Schema (raw and GRDB create it with this SQL; OpenCoreData creates the same tables and indexes from its model, plus its own metadata tables):")
        lines.append("")
        lines.append("  ```sql")
        lines.append(contentsOf: Schema.printedDDL.map { "  \($0);" })
        lines.append("  ```")
        lines.append("- Values, from a seeded SplitMix64 generator, identical for every engine (checked below): `a0` INTEGER counter 0…N−1; `a1` INTEGER 0..<1000 (indexed); `a2`, `a3` REAL; `a4` TEXT \(FlatDataset.a4Length) chars; `a5` TEXT \(FlatDataset.a5Length) chars; `a6` INTEGER bool, true on every 10th row; `a7` REAL date (seconds since 2001); `a8` BLOB \(FlatDataset.a8Length) bytes; `a9` TEXT \(FlatDataset.a9Length) chars.")
        let plan = (try? SQLiteConnection.queryPlan(Schema.selectW3))?.joined(separator: "; ") ?? "?"
        lines.append("- W3's query plan (raw SQL, no ANALYZE statistics in any engine): \(plan).")
        let rows = options.rows
        lines.append("- Row counts: `Flat` N = \(rows) rows (W1 starts empty); W3 `a1 > \(Schema.w3Threshold) ORDER BY a5 LIMIT \(Schema.w3Limit)`; W4 changes and W5 deletes the \((rows + 9) / 10) rows with `a6` true; W6 touches \(stride(from: 0, to: rows, by: 100).underestimatedCount) rows (every 100th); W7 `Item` tree of \(ItemTree.totalCount) items, deletes a subtree of \(ItemTree.subtreeSize); W8 `a4 CONTAINS[c] '\(Schema.w8Needle)' OR a9 CONTAINS[c] '\(Schema.w8Needle)'` sorted by `a5`, limit 50; W9 `ANY children.title BEGINSWITH '\(Schema.w9Prefix)'` over the W7 tree, sorted by title; W10 walks \(Workload.w10.flatRowCount(rows)) rows with `fetchBatchSize` \(Schema.w10BatchSize), reading `a4`; W11 and W12 delete all N rows.")
        lines.append("- Method: per (engine, workload, pass) a fresh temp-directory database; one process prepares it (untimed, then a WAL checkpoint), a second, fresh process times only the workload with `ContinuousClock`. \(options.passes) pass\(options.passes == 1 ? "" : "es") per engine and workload, median shown; peak MiB = highest `VmHWM` of the measuring process (whole process, input data included).")
        return lines.joined(separator: "\n")
    }

    private func pragmaTable() -> [String] {
        let keys = ["journal_mode", "synchronous", "page_size", "cache_size", "wal_autocheckpoint", "sqlite_version"]
        var lines = [
            "  | engine | " + keys.joined(separator: " | ") + " | file journal_mode / page_size |",
            "  |---" + String(repeating: "|---", count: keys.count + 1) + "|",
        ]
        for engine in options.engines {
            let reports = results.allReports.filter { $0.engine == engine }.map(\.report)
            guard !reports.isEmpty else { continue }
            let cells = keys.map { key -> String in
                let values = Set(reports.map { $0.pragmas[key] ?? "—" })
                let value = values.count == 1 ? values.first! : values.sorted().joined(separator: "/") + " (varies!)"
                return key == "synchronous" ? Self.synchronousName(value) : value
            }
            let files = Set(reports.map { "\($0.inspection.journalMode) / \($0.inspection.pageSize)" })
            let fileCell = files.count == 1 ? files.first! : files.sorted().joined(separator: ", ") + " (varies!)"
            lines.append("  | \(engine.rawValue) | " + cells.joined(separator: " | ") + " | \(fileCell) |")
        }
        return lines
    }

    private static func synchronousName(_ value: String) -> String {
        switch value {
        case "0": "0 (OFF)"
        case "1": "1 (NORMAL)"
        case "2": "2 (FULL)"
        case "3": "3 (EXTRA)"
        default: value
        }
    }

    private static func cpuModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown CPU" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown CPU"
    }
}
