import OpenCoreData

/// Checks what a live context's object graph must never show, whatever the operations
/// that led to it: relationships and their inverses agree, and no relationship holds an
/// object that is gone. Scenario tests call it at their end.
///
/// It first processes pending changes (as the end of an event or a save would: deletes
/// propagate), then walks the registered objects that are neither faults nor deleted.
/// Faults stand for stored rows and are not fired, but a related fault's row must exist;
/// a to-many relationship not yet read is read from the store.
package enum InvariantChecker {
    /// One sentence per violation in `context` (empty when the graph is sound):
    /// - a to-one whose destination's inverse does not hold the object;
    /// - a to-many member whose inverse does not point back (or hold the object);
    /// - a related object that was deleted and saved (a fault whose row is gone, or the
    ///   deleted object itself), that is not registered in the context, or that belongs to
    ///   another context or to none.
    ///
    /// Runs on the context's queue (inline when already on it).
    package static func check(_ context: ManagedObjectContext) -> [String] {
        context.performAndWait {
            context.processPendingChanges()
            let pendingDeletes = context.deletedObjects
            var problems: [String] = []
            let objects = context.registeredObjects.filter { !$0.isFault && !$0.isDeleted }.sorted { label($0) < label($1) }
            for object in objects {
                for relationship in object.entity.relationshipsByName.values.sorted(by: { $0.name < $1.name }) {
                    let source = "\(label(object)).\(relationship.name)"
                    for target in members(object.value(forKey: relationship.name)) {
                        let reference = relationship.isToMany ? "\(source) contains \(label(target))" : "\(source) → \(label(target))"
                        if let gone = whyGone(target, in: context, pendingDeletes: pendingDeletes) {
                            problems.append("\(reference), which \(gone)")
                            continue
                        }
                        guard let inverse = relationship.inverseRelationship, !target.isFault, !target.isDeleted else { continue }
                        let back = members(target.value(forKey: inverse.name))
                        if !back.contains(where: { $0 === object }) {
                            let holds = inverse.isToMany ? "does not contain it" : "is \(back.first.map(label) ?? "nil")"
                            problems.append("\(reference), but \(label(target)).\(inverse.name) \(holds)")
                        }
                    }
                }
            }
            return problems
        }
    }

    /// Why `target` may not be referenced from `context`, or nil when it may.
    private static func whyGone(_ target: ManagedObject, in context: ManagedObjectContext, pendingDeletes: Set<ManagedObject>) -> String? {
        let owner = target.managedObjectContext
        if let owner, owner !== context { return "belongs to another context" }
        if target.isDeleted && !pendingDeletes.contains(target) { return "was deleted and saved" }
        if owner == nil { return "belongs to no context" }
        if context.registeredObject(for: target.objectID) !== target { return "is not registered in the context" }
        if target.isFault && !target.objectID.isTemporaryID {
            let request = FetchRequest<ManagedObject>(entityName: target.entity.name)
            do {
                request.predicate = try CDPredicate(format: "SELF == %@", argumentArray: [target.objectID])
                if try context.count(for: request) == 0 { return "was deleted and saved (its row is gone)" }
            } catch {
                return "could not be looked up: \(error)"
            }
        }
        return nil
    }

    /// The objects a relationship value holds: a to-one's object, a to-many's members.
    private static func members(_ value: Any?) -> [ManagedObject] {
        switch value {
        case let object as ManagedObject: return [object]
        case let set as Set<ManagedObject>: return Array(set)
        case let array as [ManagedObject]: return array
        default: return []
        }
    }

    /// "Entity key", short and stable: the last component of the object's URI.
    private static func label(_ object: ManagedObject) -> String {
        "\(object.entity.name) \(object.objectID.uriRepresentation().lastPathComponent)"
    }
}
