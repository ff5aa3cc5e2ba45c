import Foundation

/// The results of `ManagedObjectContext.fetchResults(_:)`: a random-access collection
/// that holds only the matching objects' keys and materialises an object when one of its
/// elements is read — Core Data's batch-faulting array proxy.
///
/// Keys are primary keys (8 bytes per result, plus an entity number per result when
/// sub-entities matched), so a million results cost 8 MB, not a million objects. Reading
/// an element depends on the request's `fetchBatchSize`:
/// - **0** (the default): the element alone, as a fault (no SQL; its values load with one
///   query when first read, like any fault), or loaded now with one query when
///   `returnsObjectsAsFaults` is false;
/// - **n > 0**: the element's whole batch of n, loaded with values in one query (and
///   `relationshipKeyPathsForPrefetching` for it). Only the most recently used batches
///   are kept alive (`retainedBatchCount`), and the context holds unchanged objects
///   weakly, so walking a million results keeps memory flat.
///
/// Like the objects it returns, the collection belongs to its context's queue.
///
/// ```swift
/// request.fetchBatchSize = 20
/// for item in try context.fetchResults(request) { print(item.title) }
/// ```
public struct FetchResults<Element: ManagedObject>: RandomAccessCollection {
    /// How many loaded batches stay strongly referenced.
    public static var retainedBatchCount: Int { FetchResultsStorage<Element>.retainedBatchCount }

    private let storage: FetchResultsStorage<Element>

    init(context: ManagedObjectContext, keys: StoredKeys, inserted: [ManagedObject] = [], resultClass: ResultClass<Element>,
         batchSize: Int, prefetchPaths: [[RelationshipDescription]], firesFaults: Bool) {
        storage = FetchResultsStorage(context: context, keys: keys, inserted: inserted, resultClass: resultClass,
                                      batchSize: batchSize, prefetchPaths: prefetchPaths, firesFaults: firesFaults)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.keys.count }
    /// How many objects are loaded together when one is read (0: each on its own).
    public var batchSize: Int { storage.batchSize }

    /// The object at `position`, materialised (and its batch loaded) first when needed.
    ///
    /// - Complexity: O(1) when it is registered or its batch is loaded; with a batch size,
    ///   one query for the batch otherwise.
    public subscript(position: Int) -> Element {
        precondition(indices.contains(position), "FetchResults: index \(position) out of range 0..<\(count).")
        let object = storage.object(at: position)
        guard let result = storage.resultClass.cast(object) else {
            preconditionFailure("FetchResults: the object at \(position) is a \(type(of: object)), not a \(Element.self); it was created with a class other than its entity's.")
        }
        return result
    }
}

/// The keys and loaded batches of a `FetchResults`; not `Sendable`, like the context's
/// objects it hands out.
final class FetchResultsStorage<Element: ManagedObject> {
    static var retainedBatchCount: Int { 3 }
    let context: ManagedObjectContext
    let keys: StoredKeys
    /// Pending inserts among the results, referred to by negative keys (-1 is the first).
    let inserted: [ManagedObject]
    var resultClass: ResultClass<Element>
    let batchSize: Int
    let prefetchPaths: [[RelationshipDescription]]
    let firesFaults: Bool
    /// Loaded batches, least recently used first.
    private var loaded: [(batch: Int, objects: [ManagedObject])] = []

    init(context: ManagedObjectContext, keys: StoredKeys, inserted: [ManagedObject], resultClass: ResultClass<Element>,
         batchSize: Int, prefetchPaths: [[RelationshipDescription]], firesFaults: Bool) {
        self.context = context
        self.keys = keys
        self.inserted = inserted
        self.resultClass = resultClass
        self.batchSize = Swift.max(0, batchSize)
        self.prefetchPaths = prefetchPaths
        self.firesFaults = firesFaults
    }

    func object(at index: Int) -> ManagedObject {
        guard batchSize > 0 else { return objects(in: index ..< index + 1, loadingValues: firesFaults || !prefetchPaths.isEmpty)[0] }
        let batch = index / batchSize
        return objects(ofBatch: batch)[index - batch * batchSize]
    }

    private func objects(ofBatch batch: Int) -> [ManagedObject] {
        if let position = loaded.firstIndex(where: { $0.batch == batch }) {
            if position != loaded.count - 1 { loaded.append(loaded.remove(at: position)) }
            return loaded[loaded.count - 1].objects
        }
        let start = batch * batchSize
        let objects = objects(in: start ..< (keys.count - start <= batchSize ? keys.count : start + batchSize), loadingValues: true)
        loaded.append((batch, objects))
        if loaded.count > Self.retainedBatchCount { loaded.removeFirst() }
        return objects
    }

    /// The objects of `range`: saved ones materialised by the context (loaded with one
    /// query when `loadingValues`, faults otherwise), pending inserts as they are.
    private func objects(in range: Range<Int>, loadingValues: Bool) -> [ManagedObject] {
        let layout = context.parentStore.managedObjectModel.layout
        var ids: [ManagedObjectID] = []
        ids.reserveCapacity(range.count)
        for index in range where keys.primaryKeys[index] >= 0 { ids.append(keys.objectID(at: index, layout: layout)) }
        let saved = loadingValues
            ? context.materialize(ids, prefetching: prefetchPaths, firesFaults: firesFaults)
            : ids.map { context.registerFetched($0, snapshot: nil) }
        var next = 0
        return range.map { index in
            let key = keys.primaryKeys[index]
            if key < 0 { return pendingInsert(Int(-key) - 1) }
            defer { next += 1 }
            return saved[next]
        }
    }

    /// A pending insert of the fetch: the object itself while the context holds it (or
    /// once discarded by a reset); the context's object for its row once it was saved and
    /// the context reset.
    private func pendingInsert(_ index: Int) -> ManagedObject {
        let object = inserted[index]
        if object.context === context || object.objectID.isTemporaryID { return object }
        return context.registerFetched(object.objectID, snapshot: nil)
    }
}
