import Foundation

extension PersistentStoreCoordinator {
    /// The stored values of one object, from the row cache only when the cached row is
    /// younger than `maxAge` seconds (0: never), else from its store
    /// (`ManagedObjectContext.stalenessInterval`).
    func snapshot(for id: ManagedObjectID, maxAge: TimeInterval) throws -> RowSnapshot? {
        try lock.withLock {
            let store = try store(for: id)
            if let age = rowCache.age(of: id), !(age < maxAge) { rowCache[id] = nil }
            return try snapshot(for: id, in: store)
        }
    }
}

extension ParentObjectStore {
    /// A parent without a cache of its own answers with its current values.
    func snapshot(for id: ManagedObjectID, maxAge: TimeInterval) throws -> RowSnapshot? {
        try snapshot(for: id)
    }
}
