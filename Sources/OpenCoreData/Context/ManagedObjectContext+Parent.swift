import Foundation

extension ManagedObjectContext {
    // MARK: - Setting up a child context

    /// `persistentStoreCoordinator`'s setter: a context has a coordinator or a parent,
    /// never both.
    func setCoordinator(_ newValue: PersistentStoreCoordinator?) {
        precondition(newValue == nil || parent == nil,
            "ManagedObjectContext: cannot set persistentStoreCoordinator on a child context (its parent is set): a context has either a coordinator or a parent. Set only one of them.")
        coordinator = newValue
    }

    /// `parent`'s observer: the parent becomes what this context fetches through and
    /// saves into. Setting it after the context was used, on a context with a
    /// coordinator, or so that a context becomes its own ancestor is a programmer error.
    func didSetParent(_ oldValue: ManagedObjectContext?) {
        precondition(coordinator == nil,
            "ManagedObjectContext: cannot set parent on a context that has a persistentStoreCoordinator: a context has either a coordinator or a parent. Set only one of them.")
        precondition(registry.isEmpty && pendingObjects.isEmpty && eventNumber == 1 && !nested.hasChildren,
            "ManagedObjectContext: set parent before the context is used (before inserting, fetching or giving it children); create a new context instead.")
        var ancestor = parent
        while let current = ancestor {
            precondition(current !== self, "ManagedObjectContext: a context cannot be its own parent or ancestor.")
            ancestor = current.parent
        }
        installedParentStore = parent
        if mergesSavesAutomatically { updateAutomaticMerging() }
    }

    /// The model of what stands behind the context (its coordinator or parent), or nil
    /// when neither is set.
    package var attachedModel: ManagedObjectModel? {
        installedParentStore?.managedObjectModel ?? coordinator?.managedObjectModel
    }

    // MARK: - A parent answering its children

    /// Run on this (parent) context's queue before answering a child: starts keeping
    /// versions at the first request, ends the open event (so a later change is a new
    /// version), and takes permanent IDs the parent's own parent gave since.
    func prepareToAnswerChild() {
        if !nested.hasChildren {
            nested.hasChildren = true
            // Unowned: the context holds its consumers; a strong reference would be a cycle.
            addChangeConsumer { [unowned self] changes in self.nested.noteChanges(changes) }
        }
        processPendingChanges()
        adoptKnownPermanentIDs()
    }

    /// The permanent IDs the objects with temporary `ids` took in this context.
    func knownPermanentIDs(for ids: [ManagedObjectID]) -> [ManagedObjectID: ManagedObjectID] {
        prepareToAnswerChild()
        var known: [ManagedObjectID: ManagedObjectID] = [:]
        for id in ids {
            let resolved = nested.resolve(id)
            if resolved != id { known[id] = resolved }
        }
        return known
    }

    // MARK: - A child learning permanent IDs

    /// Notes the objects a save pushed into the parent that keep temporary IDs.
    func didPushInserts(_ inserted: [ManagedObject]) {
        guard parent != nil else { return }
        for object in inserted where object.objectID.isTemporaryID { nested.provisionalIDs.insert(object.objectID) }
    }

    /// Gives objects that stand for the parent's objects the permanent IDs the parent
    /// has given them since (after it saved), as Core Data's objects get theirs when
    /// fetched again; relationships that refer to them follow.
    func adoptKnownPermanentIDs() {
        guard !nested.provisionalIDs.isEmpty, let parent else { return }
        let ids = Array(nested.provisionalIDs)
        let known = parent.performAndWait { parent.knownPermanentIDs(for: ids) }
        nested.provisionalIDs = []
        var adopting: [ManagedObject] = []
        for id in ids {
            guard let object = registeredObject(for: id), object.objectID.isTemporaryID else { continue }
            if known[id] != nil { adopting.append(object) } else { nested.provisionalIDs.insert(id) }
        }
        guard !adopting.isEmpty else { return }
        let temporary = adopting.map(\.objectID)
        let map = PermanentIDs(temporary: temporary, permanent: temporary.map { known[$0] ?? $0 }, needsLookup: true)
        for (object, permanent) in zip(adopting, map.permanent) { object.rekey(to: permanent) }
        // Saved objects refer to them too (they were pushed, and are clean), not only
        // pending ones.
        for reference in Array(registry.values) { reference.takeUnretainedValue().remapRelationships(map) }
    }
}

extension ManagedObject {
    /// Whether the object's relationships may be stored behind its context: it is not a
    /// new object of the context. (A child context's object with a temporary ID may stand
    /// for a parent's object, whose relationships the parent holds.)
    var hasStoredState: Bool {
        !objectID.isTemporaryID || lifecycle == .saved || lifecycle == .deleted
    }
}
