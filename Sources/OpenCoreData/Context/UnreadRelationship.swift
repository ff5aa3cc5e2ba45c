import Foundation

/// A to-many relationship of one object whose members could not be read from the store.
struct UnreadRelationship: Hashable {
    let object: ManagedObjectID
    let slot: Int
}

extension ManagedObjectContext {
    /// One error per pending change that depends on a relationship the store could not
    /// read: a changed many-to-many or ordered relationship (saving it would replace its
    /// stored members with what was read, nothing), or a deleted object's relationship
    /// with a delete rule (which would run over no members). Each carries the read's code.
    func unreadRelationshipErrors() -> [CoreDataError] {
        unreadRelationships.compactMap { key, failure -> CoreDataError? in
            guard let object = registeredObject(for: key.object), let relationship = object.slots.relationships[key.slot] else { return nil }
            let consequence: String
            if object.isPendingDelete, relationship.deleteRule != .noAction {
                consequence = "deleting the object would apply its \(relationship.deleteRule) rule to none of them"
            } else if object.changedSlots.contains(key.slot), relationship.isStoredAsToManyChange {
                consequence = "saving it would replace its stored members"
            } else {
                return nil
            }
            return CoreDataError(failure.code,
                "\(object.entity.name).\(relationship.name) of \(object.objectID) could not be read from the store (\(failure.message)), so \(consequence). Refresh the object (refresh(_:mergeChanges: false)) and make the change again.",
                objectID: object.objectID, key: relationship.name, sqliteResultCode: failure.sqliteResultCode)
        }
    }
}
