import Foundation
import Synchronization

/// Declares a typed property of a `ManagedObject` subclass, backed by the model property
/// `key` — OpenCoreData's `@NSManaged`.
///
/// ```swift
/// final class Item: ManagedObject {
///     @Managed("title") var title: String
///     @Managed("order") var order: Int64
///     @Managed("parent") var parent: Item?
///     @Managed("children") var children: Set<Item>
/// }
/// ManagedObjectClasses.register(Item.self)
/// ```
///
/// Reading a non-optional property whose value is nil is a programmer error (declare it
/// optional, or give the attribute a default) and traps naming the key. An object whose
/// entity is not part of a frozen model only answers key-path probes.
@propertyWrapper
public struct Managed<Value: ManagedPropertyValue> {
    /// The model property's name.
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@Managed works only on properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") } // swiftlint:disable:this unused_setter_value
    }

    public static subscript<Owner: ManagedObject>(
        _enclosingInstance object: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        get {
            let key = object[keyPath: storageKeyPath].key
            if object.slots == nil {
                // A key-path probe (see `propertyName(for:)`): its entity is not in a
                // model, so it has no slots; record the key in its empty storage.
                object.values = [.string(key)]
                return Value.probeValue
            }
            let raw = object.value(forKey: key)
            if let value = raw as? Value { return value }
            if raw == nil, let none = Value.noValue { return none }
            preconditionFailure("@Managed(\"\(key)\") of \(Owner.self): the stored value \(raw.map { "\($0)" } ?? "nil") is not a \(Value.self). Declare the property optional or fix its type.")
        }
        set {
            object.setValue(newValue.managedValue, forKey: object[keyPath: storageKeyPath].key)
        }
    }
}

/// Types a `@Managed` property can have.
public protocol ManagedPropertyValue {
    /// A placeholder returned while a key path's property name is being looked up.
    static var probeValue: Self { get }
    /// The value that stands for nil (only `Optional` has one).
    static var noValue: Self? { get }
    /// The value as `setValue(_:forKey:)` takes it.
    var managedValue: Any? { get }
}

extension ManagedPropertyValue {
    public static var noValue: Self? { nil }
    public var managedValue: Any? { self }
}

extension Optional: ManagedPropertyValue {
    public static var probeValue: Self { nil }
    public static var noValue: Self? { .some(nil) }
    public var managedValue: Any? { self.flatMap { $0 } }
}

extension Set: ManagedPropertyValue where Element: ManagedObject {
    public static var probeValue: Self { [] }
    public var managedValue: Any? { Set<ManagedObject>(self.map { $0 as ManagedObject }) }
}

extension Array: ManagedPropertyValue where Element: ManagedObject {
    public static var probeValue: Self { [] }
    public var managedValue: Any? { self.map { $0 as ManagedObject } }
}

extension String: ManagedPropertyValue { public static var probeValue: Self { "" } }
extension Int16: ManagedPropertyValue { public static var probeValue: Self { 0 } }
extension Int32: ManagedPropertyValue { public static var probeValue: Self { 0 } }
extension Int64: ManagedPropertyValue { public static var probeValue: Self { 0 } }
extension Double: ManagedPropertyValue { public static var probeValue: Self { 0 } }
extension Float: ManagedPropertyValue { public static var probeValue: Self { 0 } }
extension Bool: ManagedPropertyValue { public static var probeValue: Self { false } }
extension Decimal: ManagedPropertyValue { public static var probeValue: Self { 0 } }
extension Date: ManagedPropertyValue { public static var probeValue: Self { Date(timeIntervalSinceReferenceDate: 0) } }
extension Data: ManagedPropertyValue { public static var probeValue: Self { Data() } }
extension UUID: ManagedPropertyValue { public static var probeValue: Self { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) } }
extension URL: ManagedPropertyValue { public static var probeValue: Self { URL(fileURLWithPath: "/") } }

// MARK: - Key paths to property names

extension EntityDescription {
    /// The entity of the throwaway objects that find a `@Managed` property's name: one for
    /// the process, since every entity an object ID has named is kept for its life
    /// (`EntityRegistry`).
    static let keyPathProbe = EntityDescription(name: "KeyPathProbe")
}

extension ManagedObject {
    private static let keyPathNames = Mutex<[KeyPathKey: String]>([:])

    /// The model property name behind a `@Managed` property's key path, or nil for a key
    /// path that is not a `@Managed` property. On Linux a key path does not know its own
    /// name; `#Predicate` and `SortDescriptor` support use this table.
    ///
    /// ```swift
    /// Item.propertyName(for: \Item.title)   // "title"
    /// ```
    public static func propertyName<Root: ManagedObject, Value>(for keyPath: KeyPath<Root, Value>) -> String? {
        let key = KeyPathKey(keyPath: keyPath)
        if let known = keyPathNames.withLock({ $0[key] }) { return known }
        let probe = Root(entity: .keyPathProbe, insertInto: nil)
        _ = probe[keyPath: keyPath]
        guard case .string(let name)? = probe.values.first else { return nil }
        keyPathNames.withLock { $0[key] = name }
        return name
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
        guard let model = context.persistentStoreCoordinator?.managedObjectModel, model.isFrozen else {
            preconditionFailure("\(Self.self)(context:): the context has no coordinator with a store yet.")
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
