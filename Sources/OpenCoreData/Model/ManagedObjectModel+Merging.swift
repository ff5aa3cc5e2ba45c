import Foundation

// MARK: - Merging models

extension ManagedObjectModel {
    /// Creates one model from the entities of several, so that modules which each ship
    /// their own model (typically different frameworks, here the demo's two kits) can share
    /// one store.
    ///
    /// An entity belongs to one model (`entity.model`), so the merged model holds *copies*
    /// of the entities, with every relationship's destination and inverse re-pointed at the
    /// copies: the source models are left untouched and stay usable on their own, by their
    /// own coordinators, before or after the merge. A relationship may name its destination
    /// by an entity of another of the models (a model loaded from Xcode XML names it only by
    /// name); it is resolved in the merged model. Configurations merge by name (a name in
    /// several models gets all their entities) and version identifiers are united.
    ///
    /// For example:
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(byMerging: [listsModel, bugsModel])
    /// let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
    /// ```
    ///
    /// Core Data's `init?(byMerging:)` returns nil (or raises "Can't merge models with two
    /// different entities named …") when two models have an entity of the same name; this
    /// initializer throws instead, naming the entity and the models, so the caller learns why.
    ///
    /// - Parameter models: The models to merge, in order: the merged model's entities are
    ///   theirs, in the same order. An empty array gives an empty model.
    /// - Throws: `CoreDataError.invalidModel` when two models (or one model twice) have an
    ///   entity of the same name, an entity's sub-entity is not in its model, or an entity
    ///   has a property that is neither an attribute nor a relationship.
    public convenience init(byMerging models: [ManagedObjectModel]) throws {
        var owners: [String: Int] = [:]
        for (index, model) in models.enumerated() {
            for entity in model.entities {
                if let first = owners[entity.name] {
                    throw CoreDataError(.invalidModel, "Cannot merge models \(Self.label(models[first], first)) and \(Self.label(model, index)): both have an entity named '\(entity.name)'.")
                }
                owners[entity.name] = index
            }
        }
        var copies: [ObjectIdentifier: EntityDescription] = [:]
        let sources = models.flatMap(\.entities)
        for source in sources { copies[ObjectIdentifier(source)] = try source.mergeCopy() }
        for source in sources where !source.subentities.isEmpty {
            copies[ObjectIdentifier(source)]?.subentities = try source.subentities.map { sub in
                guard let copy = copies[ObjectIdentifier(sub)] else {
                    throw CoreDataError(.invalidModel, "Cannot merge models: entity '\(sub.name)' is a sub-entity of '\(source.name)' but is not in its model's entities.")
                }
                return copy
            }
        }
        let merged = sources.compactMap { copies[ObjectIdentifier($0)] }
        self.init(entities: merged)
        Self.wireRelationships(of: merged)
        for model in models {
            configurations.merge(model.configurations) { first, second in first + second.filter { !first.contains($0) } }
            versionIdentifiers.formUnion(model.versionIdentifiers)
        }
    }

    /// How an error message names a model: its version name when it has one, else its position.
    private static func label(_ model: ManagedObjectModel, _ index: Int) -> String {
        model.versionName.map { "'\($0)'" } ?? "#\(index + 1)"
    }

    /// Points each copied relationship at the copied destination and inverse named by its
    /// source; what cannot be resolved yet keeps its names for the coordinator's validation.
    private static func wireRelationships(of entities: [EntityDescription]) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let relationships = entities.flatMap { $0.properties.compactMap { $0 as? RelationshipDescription } }
        for relationship in relationships {
            if let name = relationship.destinationEntityName { relationship.destinationEntity = byName[name] }
        }
        for relationship in relationships {
            guard let name = relationship.inverseName, let destination = relationship.destinationEntity else { continue }
            relationship.inverseRelationship = destination.relationshipsByName[name]
        }
    }
}

// MARK: - Copies for a merged model

extension EntityDescription {
    /// A copy of the entity and its properties, belonging to no model, whose relationships
    /// name (but do not yet point at) their destination and inverse. Sub-entities are
    /// re-linked by the caller.
    fileprivate func mergeCopy() throws -> EntityDescription {
        let copy = EntityDescription(name: name, managedObjectClassName: managedObjectClassName, properties: try properties.map { try $0.mergeCopy(in: self) })
        copy.isAbstract = isAbstract
        copy.uniquenessConstraints = uniquenessConstraints
        copy.indexes = indexes
        copy.userInfo = userInfo
        copy.renamingIdentifier = renamingIdentifier
        copy.versionHashModifier = versionHashModifier
        return copy
    }
}

extension PropertyDescription {
    /// A copy of the property with every setting that the model editor or code can give it.
    fileprivate func mergeCopy(in entity: EntityDescription) throws -> PropertyDescription {
        let copy: PropertyDescription
        switch self {
        case let attribute as AttributeDescription:
            copy = attribute.mergeCopy()
        case let relationship as RelationshipDescription:
            copy = relationship.mergeCopy()
        default:
            throw CoreDataError(.invalidModel, "Cannot merge models: property '\(entity.name).\(name)' is neither an attribute nor a relationship.", key: name)
        }
        copy.userInfo = userInfo
        copy.renamingIdentifier = renamingIdentifier
        copy.versionHashModifier = versionHashModifier
        return copy
    }
}

extension AttributeDescription {
    fileprivate func mergeCopy() -> AttributeDescription {
        let copy = AttributeDescription(name: name, type: attributeType, isOptional: isOptional, isTransient: isTransient, defaultValue: defaultValue)
        copy.minValue = minValue
        copy.maxValue = maxValue
        copy.minLength = minLength
        copy.maxLength = maxLength
        copy.regularExpression = regularExpression
        copy.valueTransformerName = valueTransformerName
        copy.attributeValueClassName = attributeValueClassName
        copy.transformableValueType = transformableValueType
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.isIndexed = isIndexed
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        return copy
    }
}

extension RelationshipDescription {
    fileprivate func mergeCopy() -> RelationshipDescription {
        let copy = RelationshipDescription(
            name: name, isOrdered: isOrdered, isOptional: isOptional, deleteRule: deleteRule,
            minCount: minCount, maxCount: maxCount
        )
        copy.isTransient = isTransient
        copy.destinationEntityName = destinationEntity?.name ?? destinationEntityName
        copy.inverseName = inverseRelationship?.name ?? inverseName
        return copy
    }
}
