/// A `@Managed` property as a key-path probe saw it: the model key and the declared type.
struct ProbedProperty: @unchecked Sendable {
    // @unchecked Sendable: a metatype and a string, both immutable.
    let key: String
    let valueType: Any.Type
}

/// Finds which `@Managed` property a key path reads: on Linux a key path does not know
/// its own name. A probe object (of an entity in no model, so without slots) is read
/// through the key path; the first `@Managed` getter it reaches records itself here.
enum KeyPathProbe {
    /// The entity of probe objects (and of the placeholders a to-one returns to them): one
    /// for the process, since every entity an object ID has named is kept for its life
    /// (`EntityRegistry`).
    static let entity = EntityDescription(name: "KeyPathProbe")
    /// Per live probe: the first property read (nil while none has been).
    private static let reads = SanitizedMutex<[ObjectIdentifier: ProbedProperty?]>([:])

    /// The first `@Managed` property `keyPath` reads, or nil when it reads none.
    static func firstProperty<Root: ManagedObject, Value>(readBy keyPath: KeyPath<Root, Value>) -> ProbedProperty? {
        let probe = Root(entity: entity, insertInto: nil)
        let id = ObjectIdentifier(probe)
        reads.withLock { $0[id] = .some(nil) }
        _ = probe[keyPath: keyPath]
        return withExtendedLifetime(probe) { reads.withLock { $0.removeValue(forKey: id) } ?? nil }
    }

    /// Records `property` as read from `object` when `object` is a probe (keeping the first
    /// one read); false when it is not a probe. A placeholder reached through a probe's
    /// non-optional to-one records nothing but is still a probe.
    static func record(_ property: ProbedProperty, on object: ManagedObject) -> Bool {
        reads.withLock { reads in
            guard let read = reads[ObjectIdentifier(object)] else { return object.entity === entity }
            if read == nil { reads[ObjectIdentifier(object)] = property }
            return true
        }
    }
}
