import Foundation
import Synchronization

/// Binds `ManagedObject` subclasses to entities.
///
/// An entity's objects are instances of the class registered under its
/// `managedObjectClassName` (Xcode's "Class", with or without a module prefix or a
/// leading "."), or under its entity name; otherwise plain `ManagedObject`.
///
/// ```swift
/// final class Item: ManagedObject { … }
/// ManagedObjectClasses.register(Item.self)              // bound to entity "Item"
/// ManagedObjectClasses.register(Task.self, forEntityName: "TodoItem")
/// ```
public enum ManagedObjectClasses {
    private static let classes = SanitizedMutex<[String: ManagedObject.Type]>([:])
    private static let registrations = Atomic<UInt64>(0)

    /// Advances with every registration, so that caches of resolved classes
    /// (`ClassBindings`, a context's class cache) know when to start over.
    static var generation: UInt64 { registrations.load(ordering: .acquiring) }

    /// Registers `type` under its Swift name (and its module-qualified name), or under
    /// `entityName` when given.
    public static func register(_ type: ManagedObject.Type, forEntityName entityName: String? = nil) {
        classes.withLock { table in
            if let entityName { table[entityName] = type; return }
            table[String(describing: type)] = type
            table[String(reflecting: type)] = type
        }
        registrations.add(1, ordering: .releasing)
    }

    /// The class for `entity`'s objects.
    static func resolve(_ entity: EntityDescription) -> ManagedObject.Type {
        classes.withLock { table in
            var names: [String] = []
            if let className = entity.managedObjectClassName {
                let trimmed = className.hasPrefix(".") ? String(className.dropFirst()) : className
                names += [className, trimmed]
                if let last = trimmed.split(separator: ".").last { names.append(String(last)) }
            }
            names.append(entity.name)
            for name in names { if let type = table[name] { return type } }
            return ManagedObject.self
        }
    }
}

extension EntityDescription {
    /// Creates an object of the named entity and inserts it into `context`.
    ///
    /// An unknown entity name is a programmer error and traps with the known names.
    public static func insertNewObject(forEntityName name: String, into context: ManagedObjectContext) -> ManagedObject {
        if let last = context.lastInsertedEntity, last.entity.name == name {
            return last.type.init(entity: last.entity, insertInto: context)
        }
        guard let model = context.attachedModel else {
            preconditionFailure("EntityDescription.insertNewObject: the context has no persistentStoreCoordinator with a store (or parent context) yet.")
        }
        guard model.isFrozen, let entity = model.layout.entitiesByName[name] else {
            let known = model.entities.map(\.name).sorted().joined(separator: ", ")
            preconditionFailure("EntityDescription.insertNewObject: the model has no entity '\(name)' (or no store was added yet). Known entities: \(known).")
        }
        precondition(!entity.isAbstract, "EntityDescription.insertNewObject: entity '\(name)' is abstract; insert one of its sub-entities.")
        let type = context.objectClass(for: entity)
        context.lastInsertedEntity = (entity, type)
        return type.init(entity: entity, insertInto: context)
    }

    /// The entity named `name` in the context's model, or nil.
    public static func entity(forEntityName name: String, in context: ManagedObjectContext) -> EntityDescription? {
        context.attachedModel?.entitiesByName[name]
    }
}
