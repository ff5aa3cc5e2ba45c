import Foundation

/// A coordinator is the parent store of the contexts on it: the requirements of
/// `ParentObjectStore` are its own store-access methods (each under its lock), plus the
/// store lookup below.
extension PersistentStoreCoordinator: ParentObjectStore {
    /// Runs `body` under the lock, with the store holding each object as `store(for:)`
    /// routes it (nil for an ID of another model or of a store this coordinator does not
    /// have). With one store holding every entity, only saved IDs of other stores are
    /// looked up.
    func withStoreOf<T>(_ body: (_ storeOf: (ManagedObjectID) -> PersistentStore?) -> T) -> T {
        lock.withLock {
            let single = stores.count == 1 && stores[0].holdsAllEntities ? stores[0] : nil
            let singleNumber = single?.backend.storeNumber
            let layout = managedObjectModel.layout
            return body { id in
                if let single, id.isTemporaryID || (id.store == singleNumber && layout.holds(id)) { return single }
                return try? store(for: id)
            }
        }
    }
}
