import Foundation

/// An entity: a kind of managed object, with its attributes and relationships.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: edited only while its model is not frozen; read-only after.

    /// The entity's name, unique in the model.
    public var name: String {
        willSet { checkMutable("name") }
    }
    /// The name of the `ManagedObject` subclass that represents it (Xcode's "Class").
    public var managedObjectClassName: String? {
        willSet { checkMutable("managedObjectClassName") }
    }
    /// An abstract entity has no instances of its own, only of its sub-entities.
    public var isAbstract = false {
        willSet { checkMutable("isAbstract") }
    }
    /// The entity this one inherits from.
    public internal(set) var superentity: EntityDescription? {
        get { superentityReference?.entity }
        set { superentityReference = newValue?.weakReference }
    }
    private weak var superentityReference: WeakEntityReference?
    /// The entities that inherit from this one.
    public var subentities: [EntityDescription] = [] {
        willSet { checkMutable("subentities") }
        didSet { for sub in subentities { sub.superentity = self } }
    }
    /// The properties declared on this entity (not inherited ones).
    public var properties: [PropertyDescription] = [] {
        willSet { checkMutable("properties") }
        didSet { for property in properties { property.entity = self } }
    }
    /// Sets of property names whose values must be unique across instances.
    public var uniquenessConstraints: [[String]] = [] {
        willSet { checkMutable("uniquenessConstraints") }
    }
    /// Fetch indexes, each becoming a SQLite index on the entity's table.
    public var indexes: [FetchIndexDescription] = [] {
        willSet { checkMutable("indexes") }
    }
    /// Free-form metadata from the model.
    public var userInfo: [String: String] = [:] {
        willSet { checkMutable("userInfo") }
    }
    /// The name an entity had in an earlier model version (for migrations).
    public var renamingIdentifier: String? {
        willSet { checkMutable("renamingIdentifier") }
    }
    /// Changes the version hash without changing the schema (Xcode's "Version Hash Modifier").
    public var versionHashModifier: String? {
        willSet { checkMutable("versionHashModifier") }
    }

    /// What weak references to this entity point at (see `WeakEntityReference`).
    private(set) lazy var weakReference = WeakEntityReference(self)

    /// The model the entity belongs to.
    public internal(set) weak var model: ManagedObjectModel?
    /// Property slots and entity number, fixed when the model is frozen.
    package var slots: EntitySlots {
        guard let frozenSlots else {
            preconditionFailure("EntityDescription '\(name)': the model must be used by a PersistentStoreCoordinator (which freezes it) first.")
        }
        return frozenSlots
    }
    var frozenSlots: EntitySlots?

    public init(name: String, managedObjectClassName: String? = nil, properties: [PropertyDescription] = []) {
        self.name = name
        self.managedObjectClassName = managedObjectClassName
        self.properties = properties
        for property in properties { property.entity = self }
    }

    // MARK: - Properties including inherited ones

    /// Every property, inherited ones first.
    public var allProperties: [PropertyDescription] {
        (superentity?.allProperties ?? []) + properties
    }

    /// Every property by name, inherited ones included.
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(allProperties.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Every attribute by name, inherited ones included.
    public var attributesByName: [String: AttributeDescription] {
        propertiesByName.compactMapValues { $0 as? AttributeDescription }
    }

    /// Every relationship by name, inherited ones included.
    public var relationshipsByName: [String: RelationshipDescription] {
        propertiesByName.compactMapValues { $0 as? RelationshipDescription }
    }

    /// The relationships whose destination is `entity`.
    public func relationships(forDestination entity: EntityDescription) -> [RelationshipDescription] {
        allProperties.compactMap { $0 as? RelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Whether this entity is `other` or inherits from it.
    public func isKindOf(entity other: EntityDescription) -> Bool {
        var current: EntityDescription? = self
        while let entity = current {
            if entity === other { return true }
            current = entity.superentity
        }
        return false
    }

    /// The top of this entity's inheritance chain: the entity whose table holds its rows.
    public var rootEntity: EntityDescription {
        var entity = self
        while let parent = entity.superentity { entity = parent }
        return entity
    }

    /// This entity and all entities that inherit from it, depth first.
    public var selfAndDescendants: [EntityDescription] {
        [self] + subentities.flatMap(\.selfAndDescendants)
    }

    public var description: String { "EntityDescription(\(name))" }
}

/// A fetch index: one or more properties that a SQLite index covers.
public struct FetchIndexDescription: Sendable, Hashable {
    /// One indexed property and its order.
    public struct Element: Sendable, Hashable {
        public var propertyName: String
        public var isAscending: Bool
        public init(propertyName: String, isAscending: Bool = true) {
            self.propertyName = propertyName
            self.isAscending = isAscending
        }
    }
    public var name: String
    public var elements: [Element]
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// Stands in for an entity in weak references (an entity's superentity, a property's
/// entity, a relationship's destination).
///
/// A weak reference to an object gives it a side table, which makes every retain of
/// it slow — and entities are retained on every hot path (object IDs, objects). Weak
/// references point at this small object instead; the entity owns it, so it lives
/// exactly as long as the entity and the weak references still turn nil with it.
final class WeakEntityReference {
    unowned(unsafe) let entity: EntityDescription
    init(_ entity: EntityDescription) { self.entity = entity }
}
