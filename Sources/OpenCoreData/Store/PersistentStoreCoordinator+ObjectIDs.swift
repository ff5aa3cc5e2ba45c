import Foundation

extension PersistentStoreCoordinator {
    /// The object ID an archived `ManagedObjectID.uriRepresentation()` names, as Core
    /// Data's `managedObjectID(forURIRepresentation:)`: works across launches and
    /// coordinators, since the URI names the store by its identifier (the UUID kept in
    /// the file's metadata).
    ///
    /// For example:
    /// ```swift
    /// let uri = item.objectID.uriRepresentation()      // saved in user defaults
    /// if let id = coordinator.managedObjectID(forURIRepresentation: uri) {
    ///     let item = try context.existingObject(with: id)
    /// }
    /// ```
    ///
    /// - Returns: `nil` for a URI that is not a permanent object URI, or that names a
    ///   store this coordinator does not have or an entity of its model that store does
    ///   not hold. Whether the row still exists is not checked (`existingObject(with:)`
    ///   does).
    public func managedObjectID(forURIRepresentation url: URL) -> ManagedObjectID? {
        let prefix = "x-coredata://"
        let uri = url.absoluteString
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].first == "p", let key = Int64(parts[2].dropFirst()), key > 0 else { return nil }
        let (identifier, entityName) = (String(parts[0]), String(parts[1]))
        return lock.withLock {
            // A store was added, so the model is frozen.
            guard let store = stores.first(where: { $0.identifier == identifier }),
                  let entity = managedObjectModel.layout.entitiesByName[entityName],
                  !entity.isAbstract, store.holds(entity)
            else { return nil }
            return ManagedObjectID(entity: entity, store: store.backend.storeNumber, primaryKey: key)
        }
    }
}
