import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: a fetch over two stores answers as the same rows in one store would.
@Suite struct ReviewMultiStoreFetchTests {
    private static func model() -> ManagedObjectModel {
        let event = EntityDescription(name: "Event", properties: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "rank", type: .integer64),
            AttributeDescription(name: "when", type: .date),
        ])
        let model = ManagedObjectModel(entities: [event])
        model.configurations = ["A": ["Event"], "B": ["Event"]]
        return model
    }

    private static let titles: [String?] = ["a", "B", "é", "Z", nil, "", "a", "ab", "A", "z", "É", "10", "9"]

    /// The ranks of the fetched events, in the order fetched.
    private func ranks(_ context: ManagedObjectContext, sort: [CDSortDescriptor], offset: Int, limit: Int, predicate: String?) throws -> [Int64] {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Event")
            request.sortDescriptors = sort
            request.fetchOffset = offset
            request.fetchLimit = limit
            if let predicate { request.predicate = try CDPredicate(format: predicate) }
            return try context.fetch(request).map { $0.value(forKey: "rank") as! Int64 }
        }
    }

    private func counts(_ context: ManagedObjectContext, offset: Int, limit: Int, predicate: String?) throws -> Int {
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Event")
            request.fetchOffset = offset
            request.fetchLimit = limit
            if let predicate { request.predicate = try CDPredicate(format: predicate) }
            return try context.count(for: request)
        }
    }

    /// How the events stand when fetched: unsaved, saved, or saved then edited (titles
    /// changed and some deleted, unsaved).
    enum Stage: CaseIterable { case pending, saved, edited }

    @Test(arguments: Stage.allCases)
    func sortedWindowedFetchesAgreeWithOneStore(stage: Stage) throws {
        let folder = TemporaryFolder()
        let model = Self.model()
        let split = PersistentStoreCoordinator(managedObjectModel: model)
        let storeA = try split.addPersistentStore(type: .sqlite, configuration: "A", at: folder.file("a.sqlite"))
        let storeB = try split.addPersistentStore(type: .sqlite, configuration: "B", at: folder.file("b.sqlite"))
        let single = PersistentStoreCoordinator(managedObjectModel: model)
        _ = try single.addPersistentStore(type: .sqlite, at: folder.file("one.sqlite"))
        let splitContext = ManagedObjectContext(concurrencyType: .privateQueue)
        splitContext.persistentStoreCoordinator = split
        let singleContext = ManagedObjectContext(concurrencyType: .privateQueue)
        singleContext.persistentStoreCoordinator = single
        for (context, stores) in [(splitContext, [storeA, storeB]), (singleContext, [])] {
            try context.performAndWait {
                for (index, title) in Self.titles.enumerated() {
                    let event = EntityDescription.insertNewObject(forEntityName: "Event", into: context)
                    event.setValue(title, forKey: "title")
                    event.setValue(Int64(index), forKey: "rank")
                    event.setValue(index % 3 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(index % 4)), forKey: "when")
                    if !stores.isEmpty { try context.assign(event, to: stores[index % 2]) }
                }
                if stage != .pending { try context.save() }
                if stage == .edited {
                    let request = FetchRequest<ManagedObject>(entityName: "Event")
                    request.sortDescriptors = [CDSortDescriptor(key: "rank")]
                    for event in try context.fetch(request) {
                        let rank = event.value(forKey: "rank") as! Int64
                        if rank % 4 == 1 { context.delete(event) }
                        if rank % 4 == 2 { event.setValue("b\(rank)", forKey: "title") }
                    }
                }
            }
        }
        let sorts: [[CDSortDescriptor]] = [
            [CDSortDescriptor(key: "title", ascending: true), CDSortDescriptor(key: "rank", ascending: true)],
            [CDSortDescriptor(key: "title", ascending: false), CDSortDescriptor(key: "rank", ascending: false)],
            [CDSortDescriptor(key: "when", ascending: true), CDSortDescriptor(key: "rank", ascending: false)],
            [CDSortDescriptor(key: "when", ascending: false), CDSortDescriptor(key: "rank", ascending: true)],
        ]
        for sort in sorts {
            for (offset, limit) in [(0, 0), (0, 3), (2, 4), (11, 5), (20, 1)] {
                for predicate in [nil, "rank > 3", "title BEGINSWITH 'a'"] {
                    let expected = try ranks(singleContext, sort: sort, offset: offset, limit: limit, predicate: predicate)
                    let got = try ranks(splitContext, sort: sort, offset: offset, limit: limit, predicate: predicate)
                    #expect(got == expected, "sort \(sort.map(\.key)) offset \(offset) limit \(limit) \(predicate ?? "")")
                    let expectedCount = try counts(singleContext, offset: offset, limit: limit, predicate: predicate)
                    let gotCount = try counts(splitContext, offset: offset, limit: limit, predicate: predicate)
                    #expect(gotCount == expectedCount, "count offset \(offset) limit \(limit) \(predicate ?? "")")
                }
            }
        }
    }
}
