import Foundation
import OpenCoreData

/// `--history-cost`: what persistent history tracking costs. Per pass, on a fresh store
/// with and without `PersistentHistoryTrackingKey` (interleaved, so load drifts hit both):
/// (a) N `Flat` objects inserted (W1's rows, through the typed `@Managed` subclass as the
/// README teaches) and saved in one save, (b) a batch delete of those N
/// rows. `Flat` has no relationship, so without history the batch delete is one `DELETE`
/// that reads no row; with history every deleted row is read and recorded. Reports the
/// medians and the tracked/untracked ratios.
enum HistoryCost {
    static func run(rows: Int, passes: Int) throws -> String {
        OCDTypedFlat.setUp()
        var insert: [Bool: [Double]] = [:], delete: [Bool: [Double]] = [:]
        for pass in 1 ... passes {
            for tracking in [false, true] {
                let (inserted, deleted) = try measure(rows: rows, tracking: tracking)
                insert[tracking, default: []].append(inserted)
                delete[tracking, default: []].append(deleted)
                ParentMain.log("history pass \(pass)/\(passes) tracking \(tracking ? "on" : "off"): insert+save \(ResultsTable.format(inserted)) s, batch delete \(ResultsTable.format(deleted)) s")
            }
        }
        func median(_ values: [Bool: [Double]], _ tracking: Bool) -> Double { Results.median(values[tracking] ?? []) ?? 0 }
        func ratio(_ values: [Bool: [Double]]) -> String {
            let off = median(values, false)
            return off > 0 ? String(format: "%.2f×", median(values, true) / off) : "?"
        }
        return [
            "## Persistent history: \(rows) inserts + save, and a batch delete of \(rows) rows (\(passes) passes)",
            "",
            "| | tracking off, median s | tracking on, median s | on / off |",
            "|---|---|---|---|",
            "| insert \(rows) + save | \(ResultsTable.format(median(insert, false))) | \(ResultsTable.format(median(insert, true))) | \(ratio(insert)) |",
            "| batch delete of \(rows) rows | \(ResultsTable.format(median(delete, false))) | \(ResultsTable.format(median(delete, true))) | \(ratio(delete)) |",
        ].joined(separator: "\n")
    }

    /// One pass on a fresh store: seconds to insert and save `rows` objects, then to
    /// batch delete them all.
    private static func measure(rows: Int, tracking: Bool) throws -> (insert: Double, delete: Double) {
        let values = FlatDataset.rows(count: rows)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: OCDModels.flat())
        try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("history.sqlite"),
                                           options: [PersistentHistoryTrackingKey: tracking])
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let inserted = try Stopwatch.time {
                OCDTypedFlat.insert(values, into: context)
                try context.save()
            }.seconds
            context.reset()
            let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Flat"))
            delete.resultType = .resultTypeCount
            let (result, deleted) = try Stopwatch.time { try context.execute(delete).result as? Int }
            guard result == rows else {
                throw Options.Invalid(description: "history cost: the batch delete removed \(result ?? -1) rows, not \(rows)")
            }
            if tracking {
                let count = PersistentHistoryChangeRequest.fetchHistory(after: nil)
                count.resultType = .count
                guard try context.execute(count).count == 2 else { throw Options.Invalid(description: "history cost: expected 2 transactions") }
            }
            return (inserted, deleted)
        }
    }
}
