import Foundation

extension ManagedObjectContext {
    // MARK: - Merging saves of other contexts

    /// Brings the context up to date with a save of another context on the same
    /// coordinator: pass its `didSaveObjectsNotification` (or `didSaveObjectIDsNotification`).
    ///
    /// Registered objects the save updated are refreshed, keeping this context's unsaved
    /// changes on top (`refresh(_:mergeChanges: true)`; conflicts left are decided at this
    /// context's next save); objects it deleted leave the context and the loaded
    /// relationships of others; objects it inserted are registered (as faults). The merge
    /// is an event of its own: it posts one `didChangeObjectsNotification` listing them
    /// (merged inserts under `inserted`, merged updates under `refreshed`, merged deletes
    /// under `deleted`). Runs on the context's queue (waiting for it when called from
    /// elsewhere); a notification of this context's own save changes nothing.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        if let origin = notification.object as? ManagedObjectContext, origin === self { return }
        let changes = ObjectChanges(savedIn: notification.userInfo ?? [:])
        performAndWait { merge(changes) }
    }

    /// Whether the context merges the saves of its siblings by itself — the other contexts
    /// on its coordinator, as Core Data's `viewContext` does, or for a child context the
    /// other children of its parent: each successful save is merged on this context's
    /// queue soon after it (as `mergeChanges(fromContextDidSave:)`).
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesSavesAutomatically }
        set {
            mergesSavesAutomatically = newValue
            updateAutomaticMerging()
        }
    }

    /// The source whose saves `automaticallyMergesChangesFromParent` merges, which is
    /// also where this context's saves are announced: the coordinator's broadcast for a
    /// context on one; for a child context, its parent's broadcast of the saves its
    /// children push into it ("changes saved to its parent context", as Core Data puts it).
    var automaticMergeSource: SaveBroadcast? {
        if let parent { return parent.childSaves }
        return installedParentStore == nil ? persistentStoreCoordinator?.saveBroadcast : nil
    }

    /// Where this context's saves are announced to contexts that merge them (see
    /// `automaticMergeSource`).
    var saveDestination: SaveBroadcast? { automaticMergeSource }

    /// Subscribes to (or leaves) the automatic-merge source, after the flag or the
    /// coordinator changed.
    func updateAutomaticMerging() {
        let source = mergesSavesAutomatically ? automaticMergeSource : nil
        guard source !== automaticMergeSubscription else { return }
        automaticMergeSubscription?.unsubscribe(self)
        source?.subscribe(self)
        automaticMergeSubscription = source
    }

    /// Announces a successful save to the contexts that merge this one's saves.
    func publishSave(_ saved: ObjectChanges) {
        guard !saved.isEmpty else { return }
        saveDestination?.publish(saved, from: self)
    }

    /// A save delivered by the automatic-merge source, on the context's queue.
    func mergeAutomatically(_ changes: ObjectChanges) {
        guard mergesSavesAutomatically else { return }
        merge(changes)
    }

    /// The one merge path (`mergeChanges(fromContextDidSave:)`,
    /// `mergeChanges(fromRemoteContextSave:into:)`, automatic merging): applies changes
    /// saved elsewhere as an event of their own, on the context's queue.
    func merge(_ saved: ObjectChanges) {
        processPendingChanges()
        ledger.isMerge = true
        for id in saved.updated {
            guard let object = registeredObject(for: id), object.context === self, !object.isPendingInsert else { continue }
            // A fault is listed as refreshed so that observers (a fetched results
            // controller) look at it again.
            refreshKeepingChanges(object, listingFault: true)
        }
        if !saved.deleted.isEmpty {
            for id in saved.deleted {
                guard let object = registeredObject(for: id), object.context === self, !object.isInaccessible else { continue }
                object.becomeDeletedElsewhere()
            }
            for reference in Array(registry.values) {
                reference.takeUnretainedValue().dropReferences(to: saved.deleted)
            }
        }
        // A sibling child's inserts keep temporary IDs until the root saves; the shared
        // parent answers for them.
        for id in saved.inserted where !id.isTemporaryID || parent != nil {
            ledger.noteMergedInsert(object(with: id))
        }
        processPendingChanges()
        ledger.isMerge = false
    }

    // MARK: - Refreshing

    /// Refreshes every registered object, keeping unsaved changes (as
    /// `refresh(_:mergeChanges: true)` on each): loaded objects reload from the row cache
    /// or the store, faults forget the values they kept so that they read fresh ones when
    /// fired. New objects are left as they are.
    public func refreshAllObjects() {
        processPendingChanges()
        for object in registeredObjects where object.context === self && !object.isPendingInsert {
            refreshKeepingChanges(object, listingFault: false)
        }
    }

    /// Brings one registered object up to date, keeping its unsaved changes: a loaded one
    /// is refreshed (`refresh(_:mergeChanges: true)`); a fault forgets the row it kept,
    /// to read the new one when fired, and with `listingFault` is listed as refreshed in
    /// the open event.
    private func refreshKeepingChanges(_ object: ManagedObject, listingFault: Bool) {
        guard object.faulted else {
            refresh(object, mergeChanges: true)
            return
        }
        if listingFault {
            object.willChange()
            ledger.noteRefreshed(object)
        }
        object.forgetStoreSnapshot()
    }
}

extension ObjectChanges {
    /// The object IDs of a did-save notification's `userInfo` (objects under `inserted`,
    /// `updated`, `deleted`, or IDs under `inserted_objectIDs`, …), or of a dictionary of
    /// ID arrays for `mergeChanges(fromRemoteContextSave:into:)`.
    init(savedIn userInfo: [AnyHashable: Any]) {
        typealias Key = ManagedObjectContext.NotificationKey
        func ids(_ objects: Key, _ objectIDs: Key) -> Set<ManagedObjectID> {
            var ids: Set<ManagedObjectID> = []
            for key in [objects.rawValue, objectIDs.rawValue] {
                switch userInfo[key] {
                case let objects as Set<ManagedObject>: ids.formUnion(objects.lazy.map(\.objectID))
                case let objects as [ManagedObject]: ids.formUnion(objects.lazy.map(\.objectID))
                case let found as Set<ManagedObjectID>: ids.formUnion(found)
                case let found as [ManagedObjectID]: ids.formUnion(found)
                default: continue
                }
            }
            return ids
        }
        self.init(inserted: ids(.insertedObjects, .insertedObjectIDs), updated: ids(.updatedObjects, .updatedObjectIDs),
                  deleted: ids(.deletedObjects, .deletedObjectIDs))
    }
}
