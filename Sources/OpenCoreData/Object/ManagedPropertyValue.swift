import Foundation

/// Types a `@Managed` property can have: attribute values, a `ManagedObject` subclass (a
/// to-one relationship), `Set` or `Array` of one (a to-many), and optionals of these.
///
/// The generated accessors call these by slot (see `ManagedProperty`); each type has one
/// read and one write. Attribute types read their own `SlotValue` case and write it
/// without boxing; a value of another type (kept for `save()` to report) goes the
/// key-value way.
public protocol ManagedPropertyValue {
    /// The value in `slot` of `object` (firing its fault), or nil when the slot holds nil
    /// or a value of another type.
    static func _managedRead(from object: ManagedObject, slot: Int) -> Self?
    /// Stores the value in `slot` of `object`, as `setValue(_:forKey:)` does.
    func _managedWrite(to object: ManagedObject, slot: Int)
    /// A placeholder returned while a key path's property name is being looked up.
    static var _managedProbeValue: Self { get }
}

// MARK: - Attributes

extension String: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .string(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.string(self), atSlot: slot) }
    public static var _managedProbeValue: Self { "" }
}

extension Int16: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .int16(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.int16(self), atSlot: slot) }
    public static var _managedProbeValue: Self { 0 }
}

extension Int32: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .int32(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.int32(self), atSlot: slot) }
    public static var _managedProbeValue: Self { 0 }
}

extension Int64: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .int64(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.int64(self), atSlot: slot) }
    public static var _managedProbeValue: Self { 0 }
}

extension Double: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .double(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.double(self), atSlot: slot) }
    public static var _managedProbeValue: Self { 0 }
}

extension Float: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .float(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.float(self), atSlot: slot) }
    public static var _managedProbeValue: Self { 0 }
}

extension Bool: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .bool(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.bool(self), atSlot: slot) }
    public static var _managedProbeValue: Self { false }
}

extension Decimal: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .decimal(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.decimal(self), atSlot: slot) }
    public static var _managedProbeValue: Self { 0 }
}

extension Date: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .date(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.date(self), atSlot: slot) }
    public static var _managedProbeValue: Self { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .data(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.data(self), atSlot: slot) }
    public static var _managedProbeValue: Self { Data() }
}

extension UUID: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .uuid(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.uuid(self), atSlot: slot) }
    public static var _managedProbeValue: Self { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if case .uri(let value) = object.storedValue(atSlot: slot) { return value }
        return object.value(atSlot: slot) as? Self
    }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setTypedValue(.uri(self), atSlot: slot) }
    public static var _managedProbeValue: Self { URL(fileURLWithPath: "/") }
}

// MARK: - Optionals

extension Optional: ManagedPropertyValue where Wrapped: ManagedPropertyValue {
    /// `.some(nil)` when the slot holds nil; nil when it holds a value of another type.
    @inlinable
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? {
        if object.holdsNil(atSlot: slot) { return .some(nil) }
        return Wrapped._managedRead(from: object, slot: slot).map { .some($0) }
    }

    @inlinable
    public func _managedWrite(to object: ManagedObject, slot: Int) {
        if let self { self._managedWrite(to: object, slot: slot) } else { object.setValue(nil, atSlot: slot) }
    }

    public static var _managedProbeValue: Self { nil }
}

// MARK: - Relationships

/// A to-one relationship.
extension ManagedObject: ManagedPropertyValue {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? { object.value(atSlot: slot) as? Self }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setValue(self, atSlot: slot) }
    public static var _managedProbeValue: Self { Self(entity: KeyPathProbe.entity, insertInto: nil) }
}

/// A to-many relationship.
extension Set: ManagedPropertyValue where Element: ManagedObject {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? { object.value(atSlot: slot) as? Self }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setValue(Set<ManagedObject>(map { $0 }), atSlot: slot) }
    public static var _managedProbeValue: Self { [] }
}

/// An ordered to-many relationship.
extension Array: ManagedPropertyValue where Element: ManagedObject {
    public static func _managedRead(from object: ManagedObject, slot: Int) -> Self? { object.value(atSlot: slot) as? Self }
    public func _managedWrite(to object: ManagedObject, slot: Int) { object.setValue(map { $0 as ManagedObject }, atSlot: slot) }
    public static var _managedProbeValue: Self { [] }
}
