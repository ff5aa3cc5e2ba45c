import Synchronization

/// The descriptor behind one `@Managed` property: its model key and the slot it was last
/// resolved to. The macro declares one per property (`static let _managed_<name>`) and the
/// generated accessors call `_get` / `_set`; objects store nothing per property.
///
/// The slot is resolved by name once per (class, model layout) and cached with the serial
/// of the `EntitySlots` it belongs to, packed in one word (`serial << 32 | slot`): reading
/// it is a relaxed load and a compare. A class used with two models whose properties are
/// ordered differently re-resolves when the layout changes, and never reads a slot of the
/// other layout.
public struct ManagedProperty: ~Copyable, Sendable {
    /// The model property's name.
    public let key: String
    /// `serial << 32 | slot`; serial 0 (never an `EntitySlots.serial`) means unresolved.
    @usableFromInline let resolved: Atomic<UInt64>

    public init(key: String) {
        self.key = key
        resolved = Atomic(0)
    }

    /// The property's value in `object` (generated getter).
    @inlinable @inline(__always)
    public func _get<Owner: ManagedObject, Value: ManagedPropertyValue>(_ object: Owner) -> Value {
        guard let slots = object.slots else { return probeValue(of: object) }
        let slot = slot(of: object, in: slots)
        guard let value = Value._managedRead(from: object, slot: slot) else { wrongValue(Value.self, of: object, slot: slot) }
        return value
    }

    /// Sets the property's value in `object` (generated setter), as `setValue(_:forKey:)` does.
    @inlinable @inline(__always)
    public func _set<Owner: ManagedObject, Value: ManagedPropertyValue>(_ value: Value, on object: Owner) {
        guard let slots = object.slots else { notInModel(object) }
        value._managedWrite(to: object, slot: slot(of: object, in: slots))
    }

    /// The slot of the key in `slots`: the cached one when `slots` is the layout it was
    /// resolved in.
    @inlinable @inline(__always)
    func slot(of object: ManagedObject, in slots: EntitySlots) -> Int {
        let packed = resolved.load(ordering: .relaxed)
        if UInt32(truncatingIfNeeded: packed >> 32) == slots.serial {
            return Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: packed))
        }
        return resolve(in: object, slots)
    }

    /// Looks the key up by name (an unknown key traps naming the entity) and caches it.
    @usableFromInline @inline(never)
    func resolve(in object: ManagedObject, _ slots: EntitySlots) -> Int {
        let slot = object.slot(forKey: key)
        resolved.store(UInt64(slots.serial) << 32 | UInt64(UInt32(slot)), ordering: .relaxed)
        return slot
    }

    /// An object without slots is a key-path probe (`ManagedObject.propertyName(for:)`):
    /// record the key and type, and answer a placeholder.
    @usableFromInline @inline(never)
    func probeValue<Value: ManagedPropertyValue>(of object: ManagedObject) -> Value {
        guard KeyPathProbe.record(ProbedProperty(key: key, valueType: Value.self), on: object) else { notInModel(object) }
        return Value._managedProbeValue
    }

    /// Traps: an object whose entity is in no frozen model.
    @usableFromInline @inline(never)
    func notInModel(_ object: ManagedObject) -> Never {
        _ = object.entity.slots
        preconditionFailure("unreachable: an object without slots has an unfrozen entity")
    }

    /// Traps: the stored value is nil in a non-optional property, or not of its type.
    @usableFromInline @inline(never)
    func wrongValue<Value>(_: Value.Type, of object: ManagedObject, slot: Int) -> Never {
        let raw = object.value(atSlot: slot)
        preconditionFailure("@Managed(\"\(key)\") of \(type(of: object)): the stored value \(raw.map { "\($0)" } ?? "nil") is not a \(Value.self). Declare the property optional or fix its type.")
    }
}
