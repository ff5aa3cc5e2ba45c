import Foundation

// Core Data's context notifications, on `NotificationCenter.default` with the context as
// the object, posted on the context's queue. The did-change notification is a consumer
// of the change ledger's `ChangeSet` (registered by every context when it is created):
// NotificationCenter cannot say whether anyone observes, so every context records its
// events and posts (the cost is measured in docs/notifications.md).

extension ManagedObjectContext {
    // MARK: - Names and keys

    /// Posted once per event (at `processPendingChanges()`, which `save()`, fetches,
    /// counts and the end of a `perform` block call) when the event changed anything;
    /// `userInfo` holds the non-empty sets among `inserted`, `updated`, `deleted`,
    /// `refreshed` and `invalidated` (`Set<ManagedObject>`), and `invalidatedAll` (`true`)
    /// after `reset()`.
    public static let didChangeObjectsNotification = Notification.Name("NSObjectsChangedInManagingContextNotification")
    /// Posted when `save()` is about to write changes, before objects' `willSave()`; no
    /// `userInfo`.
    public static let willSaveObjectsNotification = Notification.Name("NSManagingContextWillSaveChangesNotification")
    /// Posted after a save wrote the store; `userInfo` holds `inserted`, `updated` and
    /// `deleted` (`Set<ManagedObject>`, each present, possibly empty). Hand it to
    /// `mergeChanges(fromContextDidSave:)` of another context.
    public static let didSaveObjectsNotification = Notification.Name("NSManagingContextDidSaveChangesNotification")
    /// Posted after `didSaveObjectsNotification`, with the same changes as object IDs
    /// (`Set<ManagedObjectID>` under `inserted_objectIDs`, `updated_objectIDs`,
    /// `deleted_objectIDs`): safe to hand to another thread.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")

    /// The `userInfo` keys of the context's notifications, with Core Data's strings.
    public enum NotificationKey: String, Sendable, CaseIterable {
        case insertedObjects = "inserted"
        case updatedObjects = "updated"
        case deletedObjects = "deleted"
        case refreshedObjects = "refreshed"
        case invalidatedObjects = "invalidated"
        case invalidatedAllObjects = "invalidatedAll"
        case insertedObjectIDs = "inserted_objectIDs"
        case updatedObjectIDs = "updated_objectIDs"
        case deletedObjectIDs = "deleted_objectIDs"
        case refreshedObjectIDs = "refreshed_objectIDs"
        case invalidatedObjectIDs = "invalidated_objectIDs"
    }

    // MARK: - Posting

    /// Makes the context post did-change notifications (and feed `changes`): called once,
    /// from `init`. The consumer holds the context unowned: the context owns it.
    func installChangeNotifications() {
        addChangeConsumer { [unowned(unsafe) self] changes in self.eventDidChange(changes) }
    }

    /// One closed event: the did-change notification, and an element for each iterator
    /// of `changes`.
    private func eventDidChange(_ changes: ChangeSet) {
        var userInfo: [AnyHashable: Any] = [:]
        func add(_ objects: [ManagedObject], _ key: NotificationKey) {
            if !objects.isEmpty { userInfo[key.rawValue] = Set(objects) }
        }
        add(changes.inserted, .insertedObjects)
        add(changes.updated, .updatedObjects)
        add(changes.deleted, .deletedObjects)
        add(changes.refreshed, .refreshedObjects)
        add(changes.invalidated, .invalidatedObjects)
        if changes.invalidatedAll { userInfo[NotificationKey.invalidatedAllObjects.rawValue] = true }
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: userInfo)
        if streams.isObservingChanges { streams.yieldChange(ObjectChanges(changes)) }
    }

    /// `save()` is about to write: the will-save notification.
    func saveWillBegin() {
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self)
    }

    /// The changed keys of `changes.updated`, read before the save clears them, when an
    /// iterator of `saves` wants them (nil otherwise: nobody pays for them).
    func changedKeysForSaveObservers(_ changes: PendingChanges) -> [ObjectIdentifier: Set<String>]? {
        guard streams.isObservingSaves else { return nil }
        var keys: [ObjectIdentifier: Set<String>] = [:]
        for object in changes.updated {
            keys[ObjectIdentifier(object)] = object.slots.propertyNames(in: object.changedSlots)
        }
        return keys
    }

    /// A save wrote `changes` (objects with their permanent IDs now): the did-save
    /// notifications, an element for each iterator of `saves`, and the merge into the
    /// contexts that merge this one's saves automatically.
    func saveDidEnd(_ changes: PendingChanges, changedKeys: [ObjectIdentifier: Set<String>]?) {
        let inserted = Set(changes.inserted), updated = Set(changes.updated), deleted = Set(changes.deleted)
        NotificationCenter.default.post(name: Self.didSaveObjectsNotification, object: self, userInfo: [
            NotificationKey.insertedObjects.rawValue: inserted,
            NotificationKey.updatedObjects.rawValue: updated,
            NotificationKey.deletedObjects.rawValue: deleted,
        ])
        var saved = ObjectChanges(inserted: Set(inserted.map(\.objectID)), updated: Set(updated.map(\.objectID)),
                                  deleted: Set(deleted.map(\.objectID)))
        NotificationCenter.default.post(name: Self.didSaveObjectIDsNotification, object: self, userInfo: saved.objectIDUserInfo)
        if let changedKeys {
            for object in changes.updated { saved.changedKeys[object.objectID] = changedKeys[ObjectIdentifier(object)] }
        }
        if streams.isObservingSaves { streams.yieldSave(saved) }
        publishSave(saved)
    }
}

extension ObjectChanges {
    /// The `userInfo` of a did-save-object-IDs notification (`inserted_objectIDs`,
    /// `updated_objectIDs`, `deleted_objectIDs`), which `mergeChanges(fromContextDidSave:)` merges.
    var objectIDUserInfo: [AnyHashable: Any] {
        typealias Key = ManagedObjectContext.NotificationKey
        return [Key.insertedObjectIDs.rawValue: inserted, Key.updatedObjectIDs.rawValue: updated, Key.deletedObjectIDs.rawValue: deleted]
    }
}
