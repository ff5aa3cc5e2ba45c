import Foundation

extension ManagedObject {
    // MARK: - Reading

    /// The value of an attribute (as its Swift type), a to-one relationship
    /// (`ManagedObject?`), a to-many relationship (`Set<ManagedObject>`) or an ordered
    /// one (`[ManagedObject]`).
    ///
    /// An unknown key is a programmer error and traps with a message naming the entity.
    public func value(forKey key: String) -> Any? {
        value(atSlot: slot(forKey: key))
    }

    /// The value at a dotted key path, resolved against the model (`ResolvedKeyPath`):
    /// through to-one relationships ("parent.title"); a to-many step collects the values
    /// of every related object (a set, an array for an ordered relationship); a collection
    /// operator applies to the collection so far ("children.@count" is an `Int`,
    /// "children.@sum.order" reads `order` of each child), as Foundation's KVC does.
    ///
    /// A path the model does not resolve is followed through the objects themselves (a
    /// key of a sub-entity of a destination works on objects of that sub-entity). An
    /// unknown key traps, as in `value(forKey:)`; a path that cannot be followed with the
    /// values at hand (a key after an attribute, a nil on the way, `@sum` of strings)
    /// gives nil.
    public func value(forKeyPath keyPath: String) -> Any? {
        let components = ResolvedKeyPath.components(of: keyPath)
        guard let path = try? ResolvedKeyPath(components: components, from: entity, keyPath: keyPath) else {
            // Not a path of the model: perhaps a key of a sub-entity of a destination.
            return value(alongKeys: components)
        }
        var current: Any? = self
        for (position, step) in path.steps.enumerated() {
            let slot: Int
            switch step {
            case .attribute(_, let index), .toOne(_, let index), .toMany(_, let index):
                slot = index
            case .collectionOperator(let op):
                guard let base = current, let result = try? CollectionOperators.apply(
                    op.rawValue, to: base, rest: components[(position + 1)...], keyPath: keyPath
                ) else { return nil }
                return Self.kvcValue(result, of: op)
            }
            guard let next = Self.step(from: current, { $0.value(atSlot: slot) }) else { return nil }
            current = next
        }
        return current
    }

    /// Follows `keys` through the objects themselves, as KVC does: a key unknown to the
    /// object reached traps (as in `value(forKey:)`), a nil or a non-object on the way
    /// gives nil.
    private func value(alongKeys keys: [String]) -> Any? {
        var current: Any? = self
        for key in keys {
            guard !key.hasPrefix("@"), let next = Self.step(from: current, { $0.value(forKey: key) }) else { return nil }
            current = next
        }
        return current
    }

    /// One step of a key path from `current`: `read` of an object, or of each object of a
    /// set (a set of values) or an array (an array of values); nil when `current` holds
    /// no objects, so the path cannot go on.
    private static func step(from current: Any?, _ read: (ManagedObject) -> Any?) -> Any?? {
        switch current {
        case let object as ManagedObject: return .some(read(object))
        case let objects as Set<ManagedObject>: return .some(Set(objects.compactMap { read($0) as? AnyHashable }))
        case let objects as [ManagedObject]: return .some(objects.map { read($0) as Any })
        default: return nil
        }
    }

    /// A collection operator's result as KVC hands it out: `@count` as an `Int`, a
    /// collection as a plain array.
    private static func kvcValue(_ value: Any?, of op: CollectionOperator) -> Any? {
        if op == .count, let count = value as? Int64 { return Int(count) }
        if let collection = value as? EvaluatedCollection { return collection.plainValue }
        return value
    }

    /// The value of the property in `slot`, firing the fault if needed.
    func value(atSlot slot: Int) -> Any? {
        willAccessValues()
        guard let relationship = slots!.relationships[slot] else { return values[slot].any }
        if relationship.isToMany {
            let objects = relatedObjectIDs(atSlot: slot).ordered.compactMap { context?.object(with: $0) }
            return relationship.isOrdered ? objects : Set(objects) as Any
        }
        guard case .object(let id) = values[slot] else { return nil }
        return context?.object(with: id)
    }

    /// Whether the property in `slot` holds nil (firing the fault if needed): a to-many
    /// never does; a to-one does while unset or once the context is gone.
    @usableFromInline
    func holdsNil(atSlot slot: Int) -> Bool {
        willAccessValues()
        switch values[slot] {
        case .null: return slots!.relationships[slot]?.isToMany != true
        case .object: return context == nil
        default: return false
        }
    }

    /// The stored value in `slot` as it is kept (firing the fault if needed), for the
    /// typed accessors: an attribute's own case, `.object` for a to-one.
    @inline(__always)
    func storedValue(atSlot slot: Int) -> SlotValue {
        willAccessValues()
        return values[slot]
    }

    /// The raw stored value of an attribute, or the `ManagedObjectID` of a to-one
    /// relationship, without inverse maintenance (for subclasses' accessors).
    public func primitiveValue(forKey key: String) -> Any? {
        let slot = slot(forKey: key)
        willAccessValues()
        return values[slot].any
    }

    // MARK: - Writing

    /// Sets an attribute or relationship. Numbers convert to the attribute's type when the
    /// conversion is exact; anything else is kept as given and reported as a validation
    /// error by `save()`, never silently changed. Relationships keep their inverse in step.
    public func setValue(_ value: Any?, forKey key: String) {
        setValue(value, atSlot: slot(forKey: key))
    }

    /// `setValue(_:forKey:)` for the property in `slot`.
    @usableFromInline
    func setValue(_ value: Any?, atSlot slot: Int) {
        if let relationship = slots!.relationships[slot] {
            setRelationship(value, atSlot: slot, relationship)
        } else {
            setAttribute(value, atSlot: slot)
        }
    }

    /// The typed accessors' write: a value of the attribute's own type is stored as it is,
    /// anything else (a relationship, a value to convert) as `setValue(_:atSlot:)` does.
    func setTypedValue(_ value: SlotValue, atSlot slot: Int) {
        guard let type = slots!.attributeTypes[slot], let attribute = slots!.attributes[slot],
              value.isCanonical(for: type, attribute) else {
            setValue(value.any, atSlot: slot)
            return
        }
        setAttribute(value, atSlot: slot, isValid: !value.isNaN)
    }

    /// Sets a property's stored value without inverse maintenance (for accessors): an
    /// attribute's value, a to-one's object or `ManagedObjectID`, a to-many's objects.
    /// A value a relationship cannot hold fails `save()` with `.validationWrongType`.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        let slot = slot(forKey: key)
        if let relationship = slots!.relationships[slot] {
            willAccessValues()
            willChange()
            if relationship.isToMany, let objects = Self.relatedObjects(in: value) {
                values[slot] = .null
                _ = relatedObjectIDs(atSlot: slot)
                willChangeToMany(atSlot: slot)
                toMany[slot] = RelatedObjects(objects.map(\.objectID))
            } else {
                values[slot] = (value as? ManagedObject).map { .object($0.objectID) } ?? SlotValue(value)
            }
            changedSlots.insert(slot)
        } else {
            setAttribute(value, atSlot: slot)
        }
    }

    /// Sets an attribute from a value given by key: converted to the attribute's type
    /// when exact (see `canonicalize(_:)`), else kept as given for `save()` to report.
    func setAttribute(_ value: Any?, atSlot slot: Int) {
        let attribute = slots!.attributes[slot]!
        let (canonical, isCanonical) = attribute.canonicalize(value)
        let stored = SlotValue(canonical)
        setAttribute(stored, atSlot: slot, isValid: isCanonical && !stored.isNaN)
    }

    /// Sets an attribute's stored value; `isValid` says it has the attribute's type and
    /// is not NaN, so `save()` need not look at it again.
    @inline(__always)
    func setAttribute(_ value: SlotValue, atSlot slot: Int, isValid: Bool) {
        willAccessValues()
        // Every slot of a new object is written anyway: no comparison needed.
        if !isPendingInsert && values[slot] == value { return }
        willChange()
        setNeedsValidation(!isValid, slot: slot)
        values[slot] = value
        changedSlots.insert(slot)
    }

    // MARK: - Changes

    /// The properties changed since the last save, with their new values (`NSNull` for nil).
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        for slot in changedSlots {
            result[slots!.properties[slot].name] = value(atSlot: slot) ?? NSNull()
        }
        return result
    }

    /// The values last saved (or fetched), for `keys` or for every property when nil.
    /// A new object has none.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard !objectID.isTemporaryID else { return [:] }
        willAccessValues()
        let wanted = keys.map { $0.map { slot(forKey: $0) } } ?? Array(slots!.properties.indices)
        var result: [String: Any] = [:]
        for slot in wanted {
            let name = slots!.properties[slot].name
            if let relationship = slots!.relationships[slot], relationship.isToMany {
                let ids = (try? context?.storedRelatedIDs(of: self, relationship: relationship)) ?? []
                let objects = ids.compactMap { context?.object(with: $0) }
                result[name] = relationship.isOrdered ? objects : Set(objects) as Any
            } else if slots!.relationships[slot] != nil {
                let id = committed?.values[slot].objectID
                result[name] = id.flatMap { context?.object(with: $0) } ?? NSNull()
            } else {
                result[name] = committed?.values[slot].any ?? NSNull()
            }
        }
        return result
    }

    // MARK: - Keys

    /// The slot of `key`; an unknown key traps, naming the entity and its properties.
    func slot(forKey key: String) -> Int {
        guard let slot = slots!.slot(forKey: key) else { Self.unknownKey(key, in: entity) }
        return slot
    }

    /// Traps for a key `entity` has no property for, naming the entity and its properties.
    static func unknownKey(_ key: String, in entity: EntityDescription) -> Never {
        let known = entity.slots.properties.map(\.name).sorted().joined(separator: ", ")
        preconditionFailure("ManagedObject: entity '\(entity.name)' has no property '\(key)'. Known properties: \(known). Fix the key, or add the property to the model.")
    }
}
