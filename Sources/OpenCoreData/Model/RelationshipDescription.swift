import Foundation

/// A relationship from one entity to another: to-one, to-many, or ordered to-many.
public final class RelationshipDescription: PropertyDescription, @unchecked Sendable {
    // @unchecked Sendable: edited only while its model is not frozen; read-only after.

    /// The entity at the other end.
    public var destinationEntity: EntityDescription? {
        get { destinationReference?.entity }
        set {
            checkMutable("destinationEntity")
            destinationReference = newValue?.weakReference
        }
    }
    private weak var destinationReference: WeakEntityReference?
    /// The relationship at the other end that points back, kept in step automatically.
    public var inverseRelationship: RelationshipDescription? {
        get { inverseReference?.relationship }
        set {
            checkMutable("inverseRelationship")
            inverseReference = newValue?.weakReference
        }
    }
    private weak var inverseReference: WeakRelationshipReference?
    /// What weak references to this relationship point at (see `WeakEntityReference`).
    private(set) lazy var weakReference = WeakRelationshipReference(self)
    /// The fewest related objects a saved object may have (to-many only).
    public var minCount: Int {
        willSet { checkMutable("minCount") }
    }
    /// The most related objects a saved object may have; 1 makes it to-one, 0 means unbounded.
    public var maxCount: Int {
        willSet { checkMutable("maxCount") }
    }
    /// What deleting the source object does to the destination objects.
    public var deleteRule: DeleteRule {
        willSet { checkMutable("deleteRule") }
    }
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool {
        willSet { checkMutable("isOrdered") }
    }

    /// The name of the destination entity, used to wire relationships up by name
    /// when the destination is not created yet (the model loader uses it).
    package var destinationEntityName: String?
    /// The name of the inverse relationship, wired up by name like the destination.
    package var inverseName: String?

    public init(
        name: String,
        destination: EntityDescription? = nil,
        toMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        deleteRule: DeleteRule = .nullify,
        minCount: Int = 0,
        maxCount: Int? = nil
    ) {
        self.destinationReference = destination?.weakReference
        self.destinationEntityName = destination?.name
        self.minCount = minCount
        self.maxCount = maxCount ?? (toMany ? 0 : 1)
        self.deleteRule = deleteRule
        self.isOrdered = isOrdered
        super.init(name: name, isOptional: isOptional, isTransient: false)
    }

    /// Whether the relationship holds many objects (`maxCount` other than 1).
    public var isToMany: Bool { maxCount != 1 }

    /// Whether this relationship and its inverse are both to-many (stored in a join table).
    public var isManyToMany: Bool { isToMany && (inverseRelationship?.isToMany ?? true) }

    /// Makes `self` and `other` each other's inverse.
    public func setInverse(_ other: RelationshipDescription) {
        inverseRelationship = other
        inverseName = other.name
        other.inverseRelationship = self
        other.inverseName = name
    }
}

/// Stands in for a relationship in weak references, for the reason `WeakEntityReference`
/// gives: relationships are retained on hot paths too.
final class WeakRelationshipReference {
    unowned(unsafe) let relationship: RelationshipDescription
    init(_ relationship: RelationshipDescription) { self.relationship = relationship }
}
