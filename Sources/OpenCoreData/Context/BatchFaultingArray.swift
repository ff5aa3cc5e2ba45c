import Foundation

/// The results of a fetch with a `fetchBatchSize`: a random-access collection that knows
/// the identity of every matching object from the start but loads objects a batch at a
/// time, when one of them is first read — Core Data's batch-faulting array proxy (an
/// in-memory cursor).
///
/// Identities are kept as primary keys (8 bytes per result); reading an element loads
/// its whole batch in one query. Only the most recently used batches are kept alive
/// (`retainedBatchCount`), and the context holds unchanged objects weakly, so walking
/// a million results keeps memory flat. Like the objects it returns, the array belongs
/// to its context's queue.
///
/// ```swift
/// request.fetchBatchSize = 20
/// for item in try context.fetchBatched(request) { print(item.title) }
/// ```
public struct BatchFaultingArray<Element: ManagedObject>: RandomAccessCollection {
    /// How many loaded batches stay strongly referenced.
    public static var retainedBatchCount: Int { BatchFaultingStorage.retainedBatchCount }

    private let storage: Storage

    init(context: ManagedObjectContext, keys: StoredKeys, inserted: [ManagedObject] = [], batchSize: Int, prefetchPaths: [[RelationshipDescription]], firesFaults: Bool) {
        storage = Storage(context: context, keys: keys, inserted: inserted, batchSize: batchSize, prefetchPaths: prefetchPaths, firesFaults: firesFaults)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.keys.count }
    /// How many objects are loaded per batch.
    public var batchSize: Int { storage.batchSize }

    /// The object at `position`, loading its batch first when needed.
    ///
    /// - Complexity: O(1) when its batch is loaded; one query for the batch otherwise.
    public subscript(position: Int) -> Element {
        precondition(indices.contains(position), "BatchFaultingArray: index \(position) out of range 0..<\(count).")
        let batch = position / storage.batchSize
        return storage.objects(ofBatch: batch)[position - batch * storage.batchSize] as! Element
    }

    private typealias Storage = BatchFaultingStorage
}

/// The keys and loaded batches of a `BatchFaultingArray`; not `Sendable`, like the
/// context's objects it hands out.
final class BatchFaultingStorage {
    static let retainedBatchCount = 3
    let context: ManagedObjectContext
    let keys: StoredKeys
    /// Pending inserts among the results, referred to by negative keys (-1 is the first).
    let inserted: [ManagedObject]
    let batchSize: Int
    let prefetchPaths: [[RelationshipDescription]]
    let firesFaults: Bool
    /// Loaded batches, least recently used first.
    var loaded: [(batch: Int, objects: [ManagedObject])] = []

    init(context: ManagedObjectContext, keys: StoredKeys, inserted: [ManagedObject], batchSize: Int, prefetchPaths: [[RelationshipDescription]], firesFaults: Bool) {
        self.context = context
        self.keys = keys
        self.inserted = inserted
        self.batchSize = Swift.max(1, batchSize)
        self.prefetchPaths = prefetchPaths
        self.firesFaults = firesFaults
    }

    func objects(ofBatch batch: Int) -> [ManagedObject] {
        if let position = loaded.firstIndex(where: { $0.batch == batch }) {
            if position != loaded.count - 1 { loaded.append(loaded.remove(at: position)) }
            return loaded[loaded.count - 1].objects
        }
        let start = batch * batchSize
        let range = start ..< (keys.count - start <= batchSize ? keys.count : start + batchSize)
        let objects = context.materialize(range.map(objectID), prefetching: prefetchPaths, firesFaults: firesFaults)
        loaded.append((batch, objects))
        if loaded.count > Self.retainedBatchCount { loaded.removeFirst() }
        return objects
    }

    private func objectID(at index: Int) -> ManagedObjectID {
        let key = keys.primaryKeys[index]
        if key < 0 { return inserted[Int(-key) - 1].objectID }
        return keys.objectID(at: index, layout: context.coordinator.managedObjectModel.layout)
    }
}
