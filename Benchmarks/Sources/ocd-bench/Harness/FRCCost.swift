import Foundation
import OpenCoreData

/// `--frc-cost` (W13): what keeping a `FetchedResultsController` live costs against
/// fetching again. Builds W2's store (N `Flat` rows), fetches them all into a controller
/// sorted by `a0` with a per-change delegate, through the typed `Flat` class the README
/// teaches, then per pass times (a) one object's sort key changed so that it moves
/// (`flat.a0 = …` + `processPendingChanges()`, which delivers
/// the controller's batch) and (b) a fetch of the same request (`context.fetch`, every
/// object already registered). Reports both medians and their ratio.
///
/// For instruction counts, run it under callgrind restricted to one side:
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*FRCCost.oneChange*' ocd-bench --frc-cost --passes 1`
/// (and `*FRCCost.refetch*`).
enum FRCCost {
    /// Counts the controller's callbacks, so that a lost batch shows.
    final class Counter: FetchedResultsControllerDelegate {
        var moves = 0
        func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            if type == .move { moves += 1 }
        }
    }

    static func run(rows: Int, passes: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-frc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("w2.sqlite")
        try OCDEngine<OCDKVCFlat>().prepare(.w2, path: url.path, rows: rows)
        try StoreInspector.checkpoint(path: url.path)
        OCDTypedFlat.setUp()
        let stack = try OCDStack(model: OCDModels.flat(), path: url.path)
        let context = stack.context
        return try context.performAndWait {
            let request = FetchRequest<Flat>()
            request.sortDescriptors = [CDSortDescriptor(key: "a0")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let counter = Counter()
            controller.delegate = counter
            try controller.performFetch()
            var change: [Double] = [], refetched: [Double] = []
            var random = SplitMix64(seed: 13)
            for pass in 1 ... passes {
                let objects = controller.fetchedObjects ?? []
                let object = objects[Int(random.next() % UInt64(objects.count))]
                // A key below every other: the object moves to the front.
                let key = Int64(-pass)
                change.append(Stopwatch.time { oneChange(object, key: key, in: context) }.seconds)
                refetched.append(try Stopwatch.time { try refetch(request, in: context) }.seconds)
                ParentMain.log("frc pass \(pass)/\(passes): one change \(ResultsTable.format(change.last ?? 0)) s, refetch \(ResultsTable.format(refetched.last ?? 0)) s")
            }
            guard counter.moves == passes, controller.fetchedObjects?.first?.a0 == -Int64(passes) else {
                throw Options.Invalid(description: "frc cost: the controller reported \(counter.moves) moves for \(passes) changes")
            }
            let changeMedian = Results.median(change) ?? 0, refetchMedian = Results.median(refetched) ?? 0
            return [
                "## W13: one sort-key change in a \(rows)-object FetchedResultsController vs a refetch (\(passes) passes)",
                "",
                "| | median s | min–max s |",
                "|---|---|---|",
                "| one change (typed setter + processPendingChanges, batch delivered) | \(ResultsTable.format(changeMedian)) | \(ResultsTable.format(change.min() ?? 0))–\(ResultsTable.format(change.max() ?? 0)) |",
                "| refetch of the same request | \(ResultsTable.format(refetchMedian)) | \(ResultsTable.format(refetched.min() ?? 0))–\(ResultsTable.format(refetched.max() ?? 0)) |",
                "",
                "Refetch / change: \(changeMedian > 0 ? String(format: "%.0f×", refetchMedian / changeMedian) : "?") (aim ≥ 1000×).",
            ].joined(separator: "\n")
        }
    }

    @inline(never)
    static func oneChange(_ object: Flat, key: Int64, in context: ManagedObjectContext) {
        object.a0 = key
        context.processPendingChanges()
    }

    @inline(never)
    static func refetch(_ request: FetchRequest<Flat>, in context: ManagedObjectContext) throws {
        _ = try context.fetch(request)
    }
}
