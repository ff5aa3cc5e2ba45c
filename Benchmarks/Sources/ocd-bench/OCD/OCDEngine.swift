import Foundation
@_spi(ChangeTracking) import OpenCoreData

/// OpenCoreData used as a Core Data app would: managed objects, fetch requests with
/// predicates and sort descriptors, one save per workload. `Access` decides how values
/// move in and out of objects: key-value coding (`ocd-kvc`) or typed `@Managed`
/// properties (`ocd-typed`). W7, W9 and W11 use no `Flat` accessors and run as `ocd-kvc`.
struct OCDEngine<Access: OCDFlatAccess>: BenchEngine {
    /// Whether a consumer of the context's change sets is attached (`ocd-observed`).
    let observesChanges: Bool
    /// Whether the context has an undo manager (`ocd-undo`).
    let recordsUndo: Bool

    init(observesChanges: Bool = false, recordsUndo: Bool = false) {
        self.observesChanges = observesChanges
        self.recordsUndo = recordsUndo
        Access.setUp()
    }

    func prepare(_ workload: Workload, path: String, rows: Int) throws {
        if workload.usesItemTree {
            let stack = try OCDStack(model: OCDModels.item(), path: path)
            try stack.context.performAndWait {
                OCDItemTree.insert(into: stack.context)
                try stack.context.save()
            }
            return
        }
        let stack = try OCDStack(model: OCDModels.flat(), path: path)
        guard workload.needsFlatRows else { return }
        let values = FlatDataset.rows(count: workload.flatRowCount(rows))
        // Saved in chunks, the context reset after each, so a 1,000,000-row fixture fits.
        let chunk = 100_000
        try stack.context.performAndWait {
            for start in stride(from: 0, to: values.count, by: chunk) {
                Access.insert(Array(values[start..<min(start + chunk, values.count)]), into: stack.context)
                try stack.context.save()
                stack.context.reset()
            }
        }
    }

    func run(_ workload: Workload, path: String, rows: Int) throws -> RunOutcome {
        switch workload {
        case .w1:
            let values = FlatDataset.rows(count: rows)
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                Access.insert(values, into: context)
                try context.save()
                return Int64(values.count)
            }
        case .w2:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let objects = try context.fetch(Access.request(asFaults: false))
                let values = objects.map(Access.values(of:))
                return values.reduce(0) { $0 &+ $1.checksum }
            }
        case .w3:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = Access.request(asFaults: false)
                request.predicate = try CDPredicate(format: "a1 > %@", Schema.w3Threshold)
                request.sortDescriptors = [CDSortDescriptor(key: "a5", ascending: true)]
                request.fetchLimit = Schema.w3Limit
                let objects = try context.fetch(request)
                return Checksums.ordered(objects.map(Access.values(of:)))
            }
        case .w4:
            let updates = FlatDataset.updates(count: rows)
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = Access.request(asFaults: false)
                request.predicate = try CDPredicate(format: "a6 == %@", true)
                var checksum: Int64 = 0
                for object in try context.fetch(request) {
                    let a0 = Access.a0(of: object)
                    guard updates.a2.indices.contains(Int(a0)) else { continue }
                    Access.change(object, a2: updates.a2[Int(a0)], a4: updates.a4[Int(a0)])
                    checksum &+= a0
                }
                try context.save()
                return checksum
            }
        case .w5:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = Access.request(asFaults: true)
                request.predicate = try CDPredicate(format: "a6 == %@", true)
                let objects = try context.fetch(request)
                for object in objects { context.delete(object) }
                try context.save()
                return Int64(objects.count)
            }
        case .w6:
            // Pure faults, as Core Data fetches them: object IDs only, values on first touch.
            return try Self.openAndTouch(path: path) { context, request in
                request.includesPropertyValues = false
                return try Self.touch(context.fetch(request))
            }
        case .w6r:
            // The key-holding collection: keys only, an object only for each element read.
            return try Self.openAndTouch(path: path) { context, request in
                try Self.touch(context.fetchResults(request))
            }
        case .w7:
            return try timed(OCDStack(model: OCDModels.item(), path: path)) { context in
                let request = FetchRequest<ManagedObject>(entityName: OCDItemTree.entityName)
                request.predicate = try CDPredicate(format: "title == %@", ItemTree.deletedTitle)
                for object in try context.fetch(request) { context.delete(object) }
                try context.save()
                return 0
            }
        case .w8:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = Access.request(asFaults: false)
                request.predicate = try CDPredicate(format: "a4 CONTAINS[c] %@ OR a9 CONTAINS[c] %@", Schema.w8Needle, Schema.w8Needle)
                request.sortDescriptors = [CDSortDescriptor(key: "a5", ascending: true)]
                request.fetchLimit = 50
                return Checksums.ordered(try context.fetch(request).map(Access.values(of:)))
            }
        case .w9:
            return try timed(OCDStack(model: OCDModels.item(), path: path)) { context in
                let request = FetchRequest<ManagedObject>(entityName: OCDItemTree.entityName)
                request.predicate = try CDPredicate(format: "ANY children.title BEGINSWITH %@", Schema.w9Prefix)
                request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
                request.returnsObjectsAsFaults = false
                let titles = try context.fetch(request).map { $0.value(forKey: "title") as? String ?? "" }
                return Checksums.orderedStrings(titles)
            }
        case .w10:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = Access.request(asFaults: true)
                request.fetchBatchSize = Schema.w10BatchSize
                var sum: Int64 = 0
                for object in try context.fetchResults(request) {
                    Checksums.stringSum(Access.a4(of: object), into: &sum)
                }
                return sum
            }
        case .w11:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = BatchDeleteRequest(fetchRequest: Access.request(asFaults: true))
                request.resultType = .resultTypeCount
                let result = try context.execute(request) as? BatchDeleteResult
                return Int64(result?.result as? Int ?? -1)
            }
        case .w12:
            return try timed(OCDStack(model: OCDModels.flat(), path: path)) { context in
                let request = Access.request(asFaults: true)
                request.includesPropertyValues = false
                let objects = try context.fetch(request)
                for object in objects { context.delete(object) }
                try context.save()
                return Int64(objects.count)
            }
        }
    }

    /// W6: opens the store (timed), then runs `body` with a request for faults.
    private static func openAndTouch(path: String, _ body: @escaping (ManagedObjectContext, FetchRequest<Access.Object>) throws -> Int64) throws -> RunOutcome {
        let model = OCDModels.flat()
        let ((stack, checksum), seconds) = try Stopwatch.time { () throws -> (OCDStack, Int64) in
            let stack = try OCDStack(model: model, path: path)
            let checksum = try stack.context.performAndWait { try body(stack.context, Access.request(asFaults: true)) }
            return (stack, checksum)
        }
        withExtendedLifetime(stack) {}
        return RunOutcome(seconds: seconds, checksum: checksum)
    }

    /// W6's touch: `a4` of every 100th object.
    private static func touch<C: RandomAccessCollection>(_ objects: C) -> Int64 where C.Element == Access.Object, C.Index == Int {
        var touched: [String] = []
        for index in stride(from: 0, to: objects.count, by: 100) {
            touched.append(Access.a4(of: objects[index]))
        }
        return Checksums.touched(keyCount: objects.count, values: touched)
    }

    /// Times `body` on the stack's context queue (the stack is opened before, untimed).
    /// The connection's pragmas are not observable from here; the report shows the
    /// file's journal mode and page size instead.
    private func timed(_ stack: OCDStack, _ body: (ManagedObjectContext) throws -> Int64) throws -> RunOutcome {
        let context = stack.context
        if observesChanges {
            // Counts what each event changed, as a consumer that keeps nothing would.
            nonisolated(unsafe) var seen = 0
            context.performAndWait { _ = context.addChangeConsumer { seen &+= $0.inserted.count &+ $0.updated.count } }
        }
        if recordsUndo {
            // As the docs teach: one manager per context, every event recorded.
            context.performAndWait { context.undoManager = CDUndoManager() }
        }
        let (checksum, seconds) = try Stopwatch.time { try context.performAndWait { try body(context) } }
        context.performAndWait {}  // work the context queued (an event's end) is done before closing
        return RunOutcome(seconds: seconds, checksum: checksum)
    }
}
