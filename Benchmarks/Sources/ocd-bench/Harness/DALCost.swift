import DataAccess
import Foundation
import OpenCoreData

/// `--dal-cost`: what DataAccess' `writeSync` of one object costs — scratch → root → disk,
/// then merged into the main context (called on the main thread, so the merge runs
/// inline and is timed) — against a plain private-queue context inserting and saving one
/// object. Both on SQLite, each on a store of its own in the same folder, alternated
/// iteration by iteration; reports medians and their ratio.
/// The benchmark's note, typed as the README teaches: a `@Managed` subclass.
final class DALNote: ManagedObject {
    @Managed var title: String
    @Managed var rank: Int64
}

enum DALCost {
    static func model() -> ManagedObjectModel {
        let note = EntityDescription(name: "Note", managedObjectClassName: "DALNote", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "rank", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        return ManagedObjectModel(entities: [note])
    }

    static func run(iterations: Int) throws -> String {
        ManagedObjectClasses.register(DALNote.self)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-dal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let dal = DALService(sqliteStack: model(), storeURL: folder.appendingPathComponent("dal.sqlite"), appStateSaving: .off)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, at: folder.appendingPathComponent("plain.sqlite"))
        let plain = ManagedObjectContext(concurrencyType: .privateQueue)
        plain.persistentStoreCoordinator = coordinator

        var viaDAL: [Double] = [], viaContext: [Double] = []
        var failure: (any Error)?
        for index in 0 ..< iterations {
            viaDAL.append(Stopwatch.time {
                dal.writeSync({ context in
                    // What a DataAccess user writes (Skopelos' `SK_create`).
                    let note = DALNote.create(in: context)
                    note.title = "note \(index)"
                    note.rank = Int64(index)
                }, completion: { failure = failure ?? $0 })
            }.seconds)
            viaContext.append(try Stopwatch.time { try plainSave(index, in: plain) }.seconds)
        }
        if let failure { throw failure }
        var counts: [Int] = []
        dal.read { context in counts.append(try context.count(for: FetchRequest<ManagedObject>(entityName: "Note"))) }
        counts.append(try plain.performAndWait { try plain.count(for: FetchRequest<ManagedObject>(entityName: "Note")) })
        guard counts == [iterations, iterations] else {
            throw Options.Invalid(description: "dal cost: stores hold \(counts) notes, expected \(iterations) each")
        }
        let dalMedian = Results.median(viaDAL) ?? 0, plainMedian = Results.median(viaContext) ?? 0
        func micro(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1_000_000) }
        return [
            "## DataAccess writeSync of one object vs a plain private-queue context save (\(iterations) iterations each, SQLite)",
            "",
            "| | median µs | min–max µs |",
            "|---|---:|---:|",
            "| `dal.writeSync` (scratch → root → disk, merged into main) | \(micro(dalMedian)) | \(micro(viaDAL.min() ?? 0))–\(micro(viaDAL.max() ?? 0)) |",
            "| `context.performAndWait { insert; save() }` | \(micro(plainMedian)) | \(micro(viaContext.min() ?? 0))–\(micro(viaContext.max() ?? 0)) |",
            "",
            "writeSync / plain save: \(plainMedian > 0 ? String(format: "%.2f×", dalMedian / plainMedian) : "?").",
        ].joined(separator: "\n")
    }

    @inline(never)
    static func plainSave(_ index: Int, in context: ManagedObjectContext) throws {
        try context.performAndWait {
            let note = DALNote(context: context)
            note.title = "note \(index)"
            note.rank = Int64(index)
            try context.save()
        }
    }
}
