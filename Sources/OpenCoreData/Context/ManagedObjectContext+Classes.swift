import Foundation

/// A context's own, lock-free layer over its model's `ClassBindings`: fetched rows and
/// inserts ask for classes per object, so the answers are kept where no lock is needed
/// (the context's queue). Emptied when a class is registered, as `ClassBindings` is.
struct ContextClassCache {
    fileprivate var generation = ManagedObjectClasses.generation
    fileprivate var classes: [ObjectIdentifier: ManagedObject.Type] = [:]
    /// The last entity asked for, and its class: fetched rows come in runs of one entity.
    fileprivate var lastResolved: (entity: EntityDescription, type: ManagedObject.Type)?
    /// The last class `init(context:)` asked for, and its entity.
    fileprivate var lastBound: (type: ObjectIdentifier, entity: EntityDescription)?

    /// Starts over when a class was registered since the cache was filled.
    fileprivate mutating func refresh() {
        let current = ManagedObjectClasses.generation
        if current != generation { self = ContextClassCache() }
    }
}

extension ManagedObjectContext {
    // MARK: - Classes of entities

    /// The class that represents `entity`'s objects.
    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        classCache.refresh()
        if let last = classCache.lastResolved, last.entity === entity { return last.type }
        let resolved = classCache.classes[ObjectIdentifier(entity)] ?? entity.slots.layout.classBindings.objectClass(for: entity)
        classCache.classes[ObjectIdentifier(entity)] = resolved
        classCache.lastResolved = (entity, resolved)
        return resolved
    }

    /// The entity of `model` whose objects are instances of `type`, for
    /// `ManagedObject.init(context:)`: the last answer is kept, since inserts come in runs
    /// of one class.
    package func entity(boundTo type: ManagedObject.Type, in model: ManagedObjectModel) -> EntityDescription? {
        classCache.refresh()
        if let last = classCache.lastBound, last.type == ObjectIdentifier(type), last.entity.slots.layout === model.layout {
            return last.entity
        }
        guard let entity = StoreFetch.entity(boundTo: type, in: model) else { return nil }
        classCache.lastBound = (ObjectIdentifier(type), entity)
        return entity
    }
}
