import Foundation

/// The `@Managed` property behind a key path whose root type is only known at run time
/// (a `#Predicate` key path, a `SortDescriptor`'s `PartialKeyPath`).
enum ManagedPropertyNames {
    /// The model property name of a one-component key path on a `ManagedObject` subclass,
    /// or nil when it is not a `@Managed` property.
    static func name(of keyPath: AnyKeyPath) -> String? {
        guard let root = type(of: keyPath).rootType as? any KeyPathNaming.Type else { return nil }
        return root.managedPropertyName(forAnyKeyPath: keyPath)
    }
}

/// Opens a key path's root type so `ManagedObject.propertyName(for:)` can be called on it.
private protocol KeyPathNaming {
    static func managedPropertyName(forAnyKeyPath keyPath: AnyKeyPath) -> String?
}

extension ManagedObject: KeyPathNaming {
    fileprivate static func managedPropertyName(forAnyKeyPath keyPath: AnyKeyPath) -> String? {
        let valueType = type(of: keyPath).valueType
        return propertyName(forAnyKeyPath: keyPath, valueType: valueType)
    }

    /// With the key path's value type opened from its existential metatype.
    private static func propertyName<Value>(forAnyKeyPath keyPath: AnyKeyPath, valueType: Value.Type) -> String? {
        guard let typed = keyPath as? KeyPath<Self, Value> else { return nil }
        return propertyName(for: typed)
    }
}
