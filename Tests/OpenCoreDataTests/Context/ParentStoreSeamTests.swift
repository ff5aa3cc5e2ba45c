import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A parent store that forwards every requirement to a real coordinator and records
/// which one each call went through: what a context asks of what stands behind it.
private final class RecordingParentStore: ParentObjectStore, @unchecked Sendable {
    // @unchecked Sendable: `calls` is only touched under `lock`.
    let base: PersistentStoreCoordinator
    private let lock = NSLock()
    private var calls: [String] = []

    init(_ base: PersistentStoreCoordinator) { self.base = base }

    /// The requirements called since the last `take()`, in order, and forgets them.
    func take() -> [String] {
        lock.withLock {
            defer { calls = [] }
            return calls
        }
    }

    private func note(_ call: String) { lock.withLock { calls.append(call) } }

    var managedObjectModel: ManagedObjectModel { base.managedObjectModel }

    func storeNumber(for query: StoreFetch) throws -> UInt32 {
        note("storeNumber")
        return try base.storeNumber(for: query)
    }

    func withStoreOf<T>(_ body: (_ storeOf: (ManagedObjectID) -> PersistentStore?) -> T) -> T {
        note("withStoreOf")
        return base.withStoreOf(body)
    }

    func fetch(_ query: StoreFetch) throws -> [FetchedRow] {
        note("fetch")
        return try base.fetch(query)
    }

    func count(_ query: StoreFetch) throws -> Int {
        note("count")
        return try base.count(query)
    }

    func snapshot(for id: ManagedObjectID) throws -> RowSnapshot? {
        note("snapshot")
        return try base.snapshot(for: id)
    }

    func relatedIDs(of id: ManagedObjectID, relationship: RelationshipDescription) throws -> [ManagedObjectID] {
        note("relatedIDs")
        return try base.relatedIDs(of: id, relationship: relationship)
    }

    func fetchKeys(_ query: StoreFetch) throws -> StoredKeys {
        note("fetchKeys")
        return try base.fetchKeys(query)
    }

    func rows(for ids: [ManagedObjectID]) throws -> [FetchedRow] {
        note("rows")
        return try base.rows(for: ids)
    }

    func prefetch(_ paths: [[RelationshipDescription]], from rows: [FetchedRow]) throws {
        note("prefetch")
        try base.prefetch(paths, from: rows)
    }

    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]] {
        note("fetchDictionaries")
        return try base.fetchDictionaries(query)
    }

    func save(_ request: SaveRequest) throws -> PermanentIDs {
        note("save")
        return try base.save(request)
    }

    func obtainPermanentIDs(for ids: [ManagedObjectID], in store: PersistentStore?) throws -> [ManagedObjectID: ManagedObjectID] {
        note("obtainPermanentIDs")
        return try base.obtainPermanentIDs(for: ids, in: store)
    }

    func batchInsert(_ request: BatchInsertRequest) throws -> [ManagedObjectID] {
        note("batchInsert")
        return try base.batchInsert(request)
    }

    func batchUpdate(_ request: BatchUpdateRequest) throws -> [ManagedObjectID] {
        note("batchUpdate")
        return try base.batchUpdate(request)
    }

    func batchDelete(_ request: BatchDeleteRequest) throws -> (ids: [ManagedObjectID]?, count: Int) {
        note("batchDelete")
        return try base.batchDelete(request)
    }
}

/// The seam between a context and what stands behind it (`ParentObjectStore`): a context
/// whose parent store is installed works entirely through it. The contexts below have no
/// `persistentStoreCoordinator` at all, so any access that bypassed the seam would trap.
@Suite struct ParentStoreSeamTests {
    /// A context standing on `parent` only, and the nested-list `Item` entity.
    private func context(on parent: RecordingParentStore) throws -> (ManagedObjectContext, EntityDescription) {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.installedParentStore = parent
        return (context, try #require(parent.managedObjectModel.entitiesByName["Item"]))
    }

    private func roots() throws -> FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = try CDPredicate(format: "parent == nil")
        return request
    }

    @Test func aCoordinatorIsTheParentStoreOfItsContexts() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        #expect(stack.context.parentStore === stack.coordinator)
    }

    @Test(arguments: StoreKind.allCases)
    func fetchFaultSaveAndCountGoThroughTheParentStore(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let parent = RecordingParentStore(stack.coordinator)

        let (writer, item) = try context(on: parent)
        try writer.performAndWait {
            let root = ManagedObject(entity: item, insertInto: writer)
            root.setValue("root", forKey: "title")
            for title in ["a", "b"] {
                let child = ManagedObject(entity: item, insertInto: writer)
                child.setValue(title, forKey: "title")
                child.setValue(root, forKey: "parent")
            }
            try writer.save()
            #expect(parent.take() == ["withStoreOf", "save"], "validation asks where objects live, then the request is handed down")
            #expect(!root.objectID.isTemporaryID, "the permanent IDs come back through the seam")
        }

        let (reader, _) = try context(on: parent)
        try reader.performAndWait {
            let fetched = try reader.fetch(roots())
            #expect(parent.take() == ["fetch", "prefetch"])
            let root = try #require(fetched.first)
            #expect(fetched.count == 1)

            let children = try #require(root.value(forKey: "children") as? Set<ManagedObject>)
            #expect(parent.take() == ["relatedIDs"], "a to-many fault loads its IDs through the parent store")
            #expect(Set(children.map { $0.value(forKey: "title") as? String }) == ["a", "b"])
            #expect(parent.take() == ["snapshot", "snapshot"], "each child fault fires through the parent store")

            #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 3)
            #expect(parent.take() == ["count"])

            root.setValue("renamed", forKey: "title")
            try reader.save()
            #expect(parent.take() == ["withStoreOf", "save"])
        }

        // The double forwards to the real coordinator: a context on it sees the writes.
        let titles = try stack.context.performAndWait { try stack.fetch("Item", "parent == nil").map { $0.value(forKey: "title") as? String } }
        #expect(titles == ["renamed"])
    }

    @Test(arguments: StoreKind.allCases)
    func keysDictionariesIDsAndBatchesGoThroughTheParentStore(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let parent = RecordingParentStore(stack.coordinator)
        let (context, item) = try context(on: parent)
        try context.performAndWait {
            let first = ManagedObject(entity: item, insertInto: context)
            first.setValue("first", forKey: "title")
            try context.obtainPermanentIDs(for: [first])
            #expect(parent.take() == ["obtainPermanentIDs"])
            try context.save()
            #expect(parent.take() == ["withStoreOf", "save"])

            let insert = BatchInsertRequest(entityName: "Item", objects: [["title": "second", "order": Int64(1)]])
            _ = try context.execute(insert)
            let update = BatchUpdateRequest(entityName: "Item")
            update.propertiesToUpdate = ["order": Int64(7)]
            _ = try context.execute(update)
            #expect(parent.take() == ["batchInsert", "batchUpdate"])
            context.reset()

            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [CDSortDescriptor(key: "title", ascending: true)]
            request.returnsObjectsAsFaults = false
            let results = try context.fetchResults(request)
            #expect(parent.take() == ["fetchKeys"])
            #expect(results.map { $0.value(forKey: "order") as? Int64 } == [7, 7])
            #expect(parent.take() == ["rows", "prefetch", "rows", "prefetch"], "each materialised element is read through the parent store")

            // A pending insert makes the key-holding results record their store number.
            ManagedObject(entity: item, insertInto: context).setValue("third", forKey: "title")
            #expect(try context.fetchResults(request).count == 3)
            #expect(parent.take() == ["fetch", "prefetch", "storeNumber"])
            context.rollback()

            let dictionaries = FetchRequest<NSDictionary>(entityName: "Item")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["title"]
            #expect(try context.fetchDictionaries(dictionaries).count == 2)
            #expect(parent.take() == ["fetchDictionaries"])

            _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Item")))
            #expect(parent.take() == ["batchDelete"])
        }
        #expect(try stack.context.performAndWait { try stack.fetch("Item") }.isEmpty)
    }
}
