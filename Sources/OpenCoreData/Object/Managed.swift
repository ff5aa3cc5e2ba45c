import Foundation

/// Declares a typed property of a `ManagedObject` subclass, backed by the model property
/// of the same name or by `key` — OpenCoreData's `@NSManaged`.
///
/// ```swift
/// final class Item: ManagedObject {
///     @Managed var title: String
///     @Managed("position") var order: Int64
///     @Managed var parent: Item?
///     @Managed var children: Set<Item>
/// }
/// ManagedObjectClasses.register(Item.self)
/// ```
///
/// The macro turns the property into accessors that read and write the object's storage
/// by slot through a `static let _managed_<name>` descriptor (`ManagedProperty`), which
/// resolves the slot once per model layout: nothing is stored per object.
///
/// Reading a non-optional property whose value is nil is a programmer error (declare it
/// optional, or give the attribute a default) and traps naming the key.
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(_managed_))
public macro Managed() = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")

/// Declares a typed property of a `ManagedObject` subclass backed by the model property
/// `key` (see `@Managed`).
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(_managed_))
public macro Managed(_ key: String) = #externalMacro(module: "OpenCoreDataMacros", type: "ManagedMacro")

// MARK: - Key paths to property names

extension ManagedObject {
    private static let keyPathNames = SanitizedMutex<[KeyPathKey: ProbedProperty]>([:])

    /// The model property name behind a `@Managed` property's key path, or nil for a key
    /// path that is not a `@Managed` property. On Linux a key path does not know its own
    /// name; `#Predicate` and `SortDescriptor` support use this table.
    ///
    /// ```swift
    /// Item.propertyName(for: \Item.title)   // "title"
    /// ```
    public static func propertyName<Root: ManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String? {
        managedProperty(for: keyPath)?.key
    }

    /// The key and declared type of the first `@Managed` property `keyPath` reads.
    static func managedProperty<Root: ManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> ProbedProperty? {
        let key = KeyPathKey(keyPath: keyPath)
        if let known = keyPathNames.withLock({ $0[key] }) { return known }
        guard let property = KeyPathProbe.firstProperty(readBy: keyPath) else { return nil }
        keyPathNames.withLock { $0[key] = property }
        return property
    }

    /// A fetch request for the entity bound to this class, returning instances of it.
    public class func fetchRequest<T: ManagedObject>() -> FetchRequest<T> {
        FetchRequest<T>()
    }

    /// Creates an object of the entity this class is bound to, inserted into `context`.
    ///
    /// The entity is the one whose objects `ManagedObjectClasses` resolves to this class
    /// (through the entity's `managedObjectClassName` or name).
    public convenience init(context: ManagedObjectContext) {
        guard let model = context.attachedModel, model.isFrozen else {
            preconditionFailure("\(Self.self)(context:): the context has no coordinator with a store (or parent context) yet.")
        }
        guard let entity = context.entity(boundTo: Self.self, in: model) else {
            preconditionFailure("\(Self.self)(context:): no entity of the model is bound to class \(Self.self); register it with ManagedObjectClasses.register(_:) and set the entity's managedObjectClassName.")
        }
        self.init(entity: entity, insertInto: context)
    }
}

/// A key path as a dictionary key across threads.
private struct KeyPathKey: Hashable, @unchecked Sendable {
    // @unchecked Sendable: key paths are immutable values.
    let keyPath: AnyKeyPath
}
