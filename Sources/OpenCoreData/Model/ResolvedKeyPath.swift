import Foundation

/// A dotted key path ("parent.title", "children.@count", "items.@sum.price") resolved
/// once against an entity into typed steps, so that every walker — the fetch checks,
/// dictionary fetches, the SQLite compiler, the in-memory store, `value(forKeyPath:)` —
/// follows the model the same way and fails with the same errors
/// (`CoreDataError+KeyPaths`).
///
/// Resolution checks what the model alone decides: every key names a property, nothing
/// follows an attribute or `@count`, operators are known and apply to collections, and
/// the path has at most `maximumKeys` keys. Where the path is used (a sort, a comparison)
/// decides whether a to-many step is allowed: see `requireToOne(in:)`.
struct ResolvedKeyPath {
    /// One key of the path.
    enum Step {
        /// An attribute (with its slot in the entity of the step): the last step.
        case attribute(AttributeDescription, slot: Int)
        /// A to-one relationship: the path goes on from the related object.
        case toOne(RelationshipDescription, slot: Int)
        /// A to-many relationship: the path goes on from every related object.
        case toMany(RelationshipDescription, slot: Int)
        /// A collection operator over the collection so far; the keys after it
        /// (`@sum.price`) are read from each element.
        case collectionOperator(CollectionOperator)

        /// The relationship the step follows, if it follows one.
        var relationship: RelationshipDescription? {
            switch self {
            case .toOne(let relationship, _), .toMany(let relationship, _): return relationship
            default: return nil
            }
        }
    }

    /// The most keys a key path may have: SQLite joins at most 64 tables in one SELECT,
    /// the row's own and one per to-one step, so the SQLite store cannot follow a longer
    /// path of to-one relationships. Enforced for every key path, in memory too, so that
    /// a predicate gets the same answer — this error — everywhere.
    static let maximumKeys = 64

    /// The path as written (named in errors).
    let keyPath: String
    /// The entity the path starts from.
    let entity: EntityDescription
    let steps: [Step]
    /// The entity of the objects the path ends at (a relationship's destination, or
    /// `entity` for an empty path); nil when it ends at values (an attribute, a count…).
    let destination: EntityDescription?

    /// Resolves `keyPath` from one object of `entity` (`fromCollection` false), from each
    /// element of a collection of them (true), or from either (nil: a collection operator
    /// first is then taken to apply to a collection).
    init(_ keyPath: String, from entity: EntityDescription, fromCollection: Bool? = false) throws {
        try self.init(components: Self.components(of: keyPath), from: entity, keyPath: keyPath, fromCollection: fromCollection)
    }

    /// Resolves the keys `components` as `init(_:from:fromCollection:)` does; `keyPath` is
    /// what errors name (the whole path, as the user wrote it).
    init(components: [String], from entity: EntityDescription, keyPath: String, fromCollection: Bool? = false) throws {
        try Self.checkLength(components.count, keyPath: keyPath)
        self.keyPath = keyPath
        self.entity = entity
        var steps: [Step] = []
        steps.reserveCapacity(components.count)
        // The entity of the objects so far (nil: values); whether they are a collection
        // (nil: unknown); what they are, for errors.
        var current: EntityDescription? = entity
        var isCollection = fromCollection
        var mayHoldCollection = false
        var found = "an object of \(entity.name)"
        for name in components {
            if name.hasPrefix("@") {
                let op = try CollectionOperator(named: name, keyPath: keyPath)
                if isCollection == false && !mayHoldCollection {
                    throw CoreDataError.collectionOperatorNeedsCollection(name, keyPath: keyPath, found: found)
                }
                steps.append(.collectionOperator(op))
                // The keys after an operator are read from each element; `@count` ends in a number.
                if op == .count { current = nil }
                (isCollection, mayHoldCollection, found) = (false, false, op == .count ? "the number \(name) gives" : "an element of \(name)")
                continue
            }
            guard let owner = current else {
                throw CoreDataError.keyAfterValue(name, follows: found, keyPath: keyPath)
            }
            guard let slot = owner.slots.slot(forKey: name) else {
                throw CoreDataError.unknownProperty(name, of: owner, keyPath: keyPath)
            }
            if let relationship = owner.slots.relationships[slot] {
                steps.append(relationship.isToMany ? .toMany(relationship, slot: slot) : .toOne(relationship, slot: slot))
                current = relationship.destinationEntity
                if relationship.isToMany { isCollection = true }
                mayHoldCollection = false
                found = "the \(relationship.isToMany ? "to-many" : "to-one") relationship '\(owner.name).\(name)'"
            } else if let attribute = owner.slots.attributes[slot] {
                steps.append(.attribute(attribute, slot: slot))
                current = nil
                // A transformable value may be an array or a set, which operators read.
                mayHoldCollection = attribute.attributeType == .transformable || attribute.attributeType == .undefined
                found = "the attribute '\(owner.name).\(name)'"
            }
        }
        self.steps = steps
        destination = current
    }

    /// The one-key path of the property in `slot` of `entity`, which always resolves.
    init(slot: Int, of entity: EntityDescription) {
        let property = entity.slots.properties[slot]
        keyPath = property.name
        self.entity = entity
        if let relationship = entity.slots.relationships[slot] {
            steps = [relationship.isToMany ? .toMany(relationship, slot: slot) : .toOne(relationship, slot: slot)]
            destination = relationship.destinationEntity
        } else {
            steps = entity.slots.attributes[slot].map { [.attribute($0, slot: slot)] } ?? []
            destination = nil
        }
    }

    /// The keys of a dotted path (empty keys kept, for the errors they cause).
    static func components(of keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Throws when a path of `keyCount` keys is longer than `maximumKeys`.
    static func checkLength(_ keyCount: Int, keyPath: String) throws {
        guard keyCount > maximumKeys else { return }
        throw CoreDataError.keyPathTooLong(keyPath, keyCount: keyCount)
    }

    // MARK: - What the path crosses

    /// The relationships the path follows, in order: a change to any of them, or to the
    /// objects they reach, can change the path's value.
    var crossedRelationships: [RelationshipDescription] { steps.compactMap(\.relationship) }

    /// Whether the path follows a to-many relationship.
    var crossesToMany: Bool {
        steps.contains { if case .toMany = $0 { return true } else { return false } }
    }

    /// Whether the path has a collection operator.
    var hasCollectionOperator: Bool {
        steps.contains { if case .collectionOperator = $0 { return true } else { return false } }
    }

    /// Whether the path yields a to-many collection: it follows a to-many relationship
    /// and no collection operator reduces it (what a direct comparison cannot take).
    var yieldsToMany: Bool { crossesToMany && !hasCollectionOperator }

    /// The property of the last step, when the path ends at a property.
    var property: PropertyDescription? {
        switch steps.last {
        case .attribute(let attribute, _): return attribute
        case .toOne(let relationship, _), .toMany(let relationship, _): return relationship
        default: return nil
        }
    }

    /// Throws unless the path is made of attributes and to-one relationships only, as a
    /// sort descriptor or a dictionary fetch's column needs.
    func requireToOne(in place: CoreDataError.KeyPathPlace) throws {
        for step in steps {
            switch step {
            case .toMany: throw CoreDataError.toManyKeyNotAllowed(keyPath, in: place)
            case .collectionOperator(let op): throw CoreDataError.collectionOperatorNotAllowed(op, keyPath: keyPath, in: place)
            default: continue
            }
        }
    }
}
