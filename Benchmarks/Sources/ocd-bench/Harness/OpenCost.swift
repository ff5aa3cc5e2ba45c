import Foundation
import OpenCoreData

/// `--open-cost`: what `PersistentStoreOption.verifiesOnOpen` (a `PRAGMA quick_check` at
/// open) costs. Builds the store W1 leaves (N `Flat` rows, checkpointed), then opens and
/// closes it `passes` times each way, alternating, in this one process (warm OS cache),
/// and reports the median and range of each and the file's size.
enum OpenCost {
    static func run(rows: Int, passes: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("w1.sqlite")
        try OCDEngine<OCDKVCFlat>().prepare(.w2, path: url.path, rows: rows)
        try StoreInspector.checkpoint(path: url.path)
        let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        var seconds: [Bool: [Double]] = [false: [], true: []]
        for pass in 1...passes {
            for verifies in [false, true] {
                let elapsed = try Stopwatch.time {
                    let coordinator = PersistentStoreCoordinator(managedObjectModel: OCDModels.flat())
                    let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: [PersistentStoreOption.verifiesOnOpen: verifies])
                    coordinator.remove(store)
                }.seconds
                seconds[verifies, default: []].append(elapsed)
                ParentMain.log("open pass \(pass)/\(passes) verifiesOnOpen \(verifies): \(ResultsTable.format(elapsed)) s")
            }
        }
        var lines = [
            "## Opening the W1 store (\(rows) rows, \(String(format: "%.1f", Double(bytes) / 1_048_576)) MiB, \(passes) passes)",
            "",
            "| verifiesOnOpen | median s | min–max s |",
            "|---|---|---|",
        ]
        for verifies in [false, true] {
            let values = seconds[verifies] ?? []
            let median = Results.median(values).map(ResultsTable.format) ?? "?"
            let range = "\(ResultsTable.format(values.min() ?? 0))–\(ResultsTable.format(values.max() ?? 0))"
            lines.append("| \(verifies) | \(median) | \(range) |")
        }
        return lines.joined(separator: "\n")
    }
}
