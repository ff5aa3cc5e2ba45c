import Foundation

/// The `@Managed` property behind a key path whose root type is only known at run time
/// (a `#Predicate` key path, a `SortDescriptor`'s `PartialKeyPath`).
enum ManagedPropertyNames {
    /// Answers already found, by key path (nil for key paths that are not properties).
    private static let known = SanitizedMutex<[KnownKeyPath: String?]>([:])

    /// The model property name of a one-component key path on a `ManagedObject` subclass,
    /// or nil when it is not a `@Managed` property.
    ///
    /// `ManagedObject.propertyName(for:)` names the first `@Managed` property a key path
    /// reads, so a longer path (`\Item.parent?.title`) or a computed property would pass
    /// for the property it reads; a name is returned only when the key path's value type
    /// is that property's declared type.
    static func name(of keyPath: AnyKeyPath) -> String? {
        let key = KnownKeyPath(keyPath: keyPath)
        if let known = known.withLock({ $0[key] }) { return known }
        let name = lookUpName(of: keyPath)
        known.withLock { $0[key] = .some(name) }
        return name
    }

    private static func lookUpName(of keyPath: AnyKeyPath) -> String? {
        guard let root = type(of: keyPath).rootType as? any KeyPathNaming.Type,
              let property = root.managedProperty(forAnyKeyPath: keyPath),
              property.valueType == type(of: keyPath).valueType
        else { return nil }
        return property.key
    }
}

/// A key path as a dictionary key across threads.
private struct KnownKeyPath: Hashable, @unchecked Sendable {
    // @unchecked Sendable: key paths are immutable values.
    let keyPath: AnyKeyPath
}

/// Opens a key path's root type so `ManagedObject.managedProperty(for:)` can be called on it.
private protocol KeyPathNaming {
    static func managedProperty(forAnyKeyPath keyPath: AnyKeyPath) -> ProbedProperty?
}

extension ManagedObject: KeyPathNaming {
    fileprivate static func managedProperty(forAnyKeyPath keyPath: AnyKeyPath) -> ProbedProperty? {
        let valueType = type(of: keyPath).valueType
        return managedProperty(forAnyKeyPath: keyPath, valueType: valueType)
    }

    /// With the key path's value type opened from its existential metatype.
    private static func managedProperty<Value>(forAnyKeyPath keyPath: AnyKeyPath, valueType: Value.Type) -> ProbedProperty? {
        guard let typed = keyPath as? KeyPath<Self, Value> else { return nil }
        return managedProperty(for: typed)
    }
}
