import Foundation

extension ManagedObjectContext {
    /// How many times one `save()` lets its merge policy resolve conflicts and writes
    /// again; a conflict still there after that ends the save with the error.
    static let maximumConflictResolutions = 8

    /// Runs `write` (one attempt at a save); when it meets rows changed in the store or
    /// a broken uniqueness constraint, hands them to `mergePolicy` and writes again.
    /// Every failed attempt wrote nothing. Under `.error` the first conflict is thrown.
    func resolvingConflicts(_ write: () throws -> Void) throws {
        var resolutions = 0
        while true {
            do {
                try write()
                return
            } catch let store as StoreConflicts {
                let error = mergeConflictError(store.conflicts)
                guard resolutions < Self.maximumConflictResolutions else { throw error }
                resolutions += 1
                conflictingRows = Dictionary(store.conflicts.map { ($0.id, $0.current) }, uniquingKeysWith: { first, _ in first })
                defer { conflictingRows = [:] }
                try mergePolicy.resolve(optimisticLockingConflicts: error.conflicts, in: self)
            } catch let violation as CoreDataError where violation.code == .constraintViolation {
                // The store names no more than the first row it could not write: the
                // context finds every clash itself (none found: not a uniqueness clash).
                let conflicts = try constraintConflicts()
                guard !conflicts.isEmpty else { throw violation }
                guard resolutions < Self.maximumConflictResolutions else { throw CoreDataError.constraintViolation(conflicts) }
                resolutions += 1
                try mergePolicy.resolve(constraintConflicts: conflicts, in: self)
            }
            // Delete rules of objects a policy deleted, before the pending changes are read again.
            processPendingChanges()
        }
    }

    /// A loaded object registered here other than `excluded`, to keep its side of a
    /// relationship in step; faults and unregistered objects read the store when used.
    func loadedObject(_ id: ManagedObjectID, besides excluded: ManagedObject) -> ManagedObject? {
        guard let object = registeredObject(for: id), object !== excluded, !object.faulted, !object.isInaccessible else { return nil }
        return object
    }
}
