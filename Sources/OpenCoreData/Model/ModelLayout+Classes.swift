import Foundation

/// Which `ManagedObject` class each entity of one model layout is bound to, and which
/// entity each class is bound to, resolved once per (class, layout) instead of once per
/// object: resolving goes through `ManagedObjectClasses`' lock and builds name strings.
///
/// Registering a class (`ManagedObjectClasses.register(_:)`) advances a generation that
/// empties the table, so a class registered after the model was first used still binds.
final class ClassBindings: Sendable {
    private struct Table {
        var generation: UInt64 = 0
        var classes: [ObjectIdentifier: ManagedObject.Type] = [:]
        /// nil values record classes no entity is bound to.
        var entities: [ObjectIdentifier: EntityDescription?] = [:]

        /// Empties the table when a class was registered since it was filled.
        mutating func refresh() {
            let current = ManagedObjectClasses.generation
            guard current != generation else { return }
            self = Table(generation: current)
        }
    }

    private let table = SanitizedMutex(Table())

    /// The class of `entity`'s objects.
    func objectClass(for entity: EntityDescription) -> ManagedObject.Type {
        table.withLock { table in
            table.refresh()
            if let known = table.classes[ObjectIdentifier(entity)] { return known }
            let resolved = ManagedObjectClasses.resolve(entity)
            table.classes[ObjectIdentifier(entity)] = resolved
            return resolved
        }
    }

    /// The first of `entities` (in model order) whose objects are instances of `type`
    /// exactly, or nil (always nil for `ManagedObject` itself).
    func entity(boundTo type: ManagedObject.Type, among entities: [EntityDescription]) -> EntityDescription? {
        guard type != ManagedObject.self else { return nil }
        return table.withLock { table in
            table.refresh()
            if let known = table.entities[ObjectIdentifier(type)] { return known }
            let bound = entities.first { entity in
                let resolved = table.classes[ObjectIdentifier(entity)] ?? ManagedObjectClasses.resolve(entity)
                table.classes[ObjectIdentifier(entity)] = resolved
                return resolved == type
            }
            table.entities[ObjectIdentifier(type)] = .some(bound)
            return bound
        }
    }
}
