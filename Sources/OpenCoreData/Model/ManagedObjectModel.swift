import Foundation

/// A schema: the entities of an object graph, their attributes and relationships.
///
/// Build one in Swift (`ManagedObjectModel(entities:)`) or load the `.xcdatamodeld`
/// of an existing app with `ManagedObjectModel(contentsOf:)`. A model may be edited
/// until a `PersistentStoreCoordinator` is created with it; from then on it is frozen
/// and shared, read-only, by every context and thread.
public final class ManagedObjectModel: @unchecked Sendable {
    // @unchecked Sendable: mutation is only allowed before `freeze()`, which the
    // coordinator calls before the model is shared; afterwards it is read-only.

    /// The model's entities, in declaration order.
    public var entities: [EntityDescription] {
        willSet { checkMutable("entities") }
        didSet { adoptEntities() }
    }
    /// Names of the model's configurations (from Xcode), each a subset of the entities.
    public var configurations: [String: [String]] = [:] {
        willSet { checkMutable("configurations") }
    }
    /// Free-form identifiers for this version of the model (Xcode's "Identifier").
    public var versionIdentifiers: Set<String> = [] {
        willSet { checkMutable("versionIdentifiers") }
    }
    /// The name of the version this model was loaded from, when loaded from a bundle.
    public internal(set) var versionName: String?

    package private(set) var isFrozen = false
    private var layoutStorage: ModelLayout?

    /// Creates an empty model; add entities with `entities = [...]`.
    public init() { entities = [] }

    /// Creates a model with the given entities.
    public init(entities: [EntityDescription]) {
        self.entities = entities
        adoptEntities()
    }

    /// The entities keyed by name.
    public var entitiesByName: [String: EntityDescription] {
        Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entities of the named configuration (all entities for `nil` or an unknown name).
    public func entities(forConfigurationName name: String?) -> [EntityDescription] {
        guard let name, let names = configurations[name] else { return entities }
        let wanted = Set(names)
        return entities.filter { wanted.contains($0.name) }
    }

    private func adoptEntities() {
        for entity in entities { entity.model = self }
    }

    /// Validates the model and fixes its layout; called by the coordinator.
    ///
    /// - Throws: `CoreDataError.invalidModel` naming the entity and property at fault.
    package func freeze() throws {
        if isFrozen { return }
        try ModelValidator(model: self).validate()
        layoutStorage = try ModelLayout(model: self)
        isFrozen = true
    }

    /// The frozen layout: entity numbers, property slots, tables. Only valid after `freeze()`.
    package var layout: ModelLayout {
        guard let layoutStorage else {
            preconditionFailure("ManagedObjectModel: the model must be used by a PersistentStoreCoordinator before objects are created.")
        }
        return layoutStorage
    }
}
