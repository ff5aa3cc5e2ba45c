import Foundation
import OpenCoreData

extension EditingSession {
    /// The reference of a saved object, to hand out of the context's queue; nil for an
    /// object not saved yet (it has no row number).
    public func reference<Object: ManagedObject>(to object: Object) -> Reference<Object>? {
        object.objectID.primaryKey.flatMap { Reference(primaryKey: $0) }
    }

    /// `reference(to:)` for an object that must be saved, as one a row is made of.
    ///
    /// - Throws: `EditingSessionError.notFound` (reference “(unsaved)”) for an object not
    ///   saved yet.
    public func savedReference<Object: ManagedObject>(to object: Object) throws -> Reference<Object> {
        guard let reference = reference(to: object) else {
            throw EditingSessionError.notFound(entity: String(describing: Object.self), reference: "(unsaved)")
        }
        return reference
    }

    /// The object `reference` names, loaded. Call it inside `read` or `perform`.
    ///
    /// - Throws: `EditingSessionError.notFound` when the store has no such object (never
    ///   saved, deleted by this or another editor, or a number that was never used).
    public func object<Object: ManagedObject>(_ reference: Reference<Object>) throws -> Object {
        let notFound = EditingSessionError.notFound(entity: String(describing: Object.self), reference: reference.description)
        guard let coordinator = context.persistentStoreCoordinator,
              let entity = Object.entity(in: coordinator.managedObjectModel)
        else { throw notFound }
        for store in coordinator.persistentStores {
            guard let uri = URL(string: "x-coredata://\(store.identifier)/\(entity.name)/p\(reference.primaryKey)"),
                  let objectID = coordinator.managedObjectID(forURIRepresentation: uri)
            else { continue }
            do {
                guard let object = try context.existingObject(with: objectID) as? Object, !object.isDeleted else { throw notFound }
                return object
            } catch let error as CoreDataError where error.code == .objectNotFound {
                throw notFound
            }
        }
        throw notFound
    }
}
