import Foundation

/// Checks a model before it is used: names resolve, inverses point back, constraints and
/// indexes name real properties. Relationships given by destination or inverse *name*
/// (as the model loader creates them) are wired up here.
struct ModelValidator {
    let model: ManagedObjectModel

    func validate() throws {
        let byName = try uniqueEntities()
        for entity in model.entities {
            try checkInheritance(of: entity)
            try checkPropertyNames(of: entity)
            for case let relationship as RelationshipDescription in entity.properties {
                try wire(relationship, in: entity, entities: byName)
            }
        }
        for entity in model.entities {
            for case let relationship as RelationshipDescription in entity.properties {
                try checkInverse(of: relationship, in: entity)
            }
            try checkConstraintsAndIndexes(of: entity)
        }
    }

    private func invalid(_ message: String, entity: String? = nil, key: String? = nil) -> CoreDataError {
        CoreDataError(.invalidModel, message, key: key)
    }

    private func uniqueEntities() throws -> [String: EntityDescription] {
        var byName: [String: EntityDescription] = [:]
        for entity in model.entities {
            guard !entity.name.isEmpty else { throw invalid("An entity has an empty name.") }
            guard byName[entity.name] == nil else {
                throw invalid("The model has two entities named '\(entity.name)'.")
            }
            byName[entity.name] = entity
        }
        // Sub-entities listed only under their parent still belong to the model.
        for entity in model.entities {
            for sub in entity.subentities where byName[sub.name] !== sub {
                throw invalid("Entity '\(sub.name)' is a sub-entity of '\(entity.name)' but is not in the model's entities.")
            }
        }
        return byName
    }

    private func checkInheritance(of entity: EntityDescription) throws {
        var seen: Set<ObjectIdentifier> = []
        var current: EntityDescription? = entity
        while let next = current {
            guard seen.insert(ObjectIdentifier(next)).inserted else {
                throw invalid("Entity '\(entity.name)' inherits from itself.")
            }
            current = next.superentity
        }
    }

    private func checkPropertyNames(of entity: EntityDescription) throws {
        var seen: Set<String> = []
        for property in entity.allProperties {
            guard !property.name.isEmpty else { throw invalid("Entity '\(entity.name)' has a property with an empty name.") }
            guard seen.insert(property.name).inserted else {
                throw invalid("Entity '\(entity.name)' has two properties named '\(property.name)'.", key: property.name)
            }
        }
    }

    private func wire(_ relationship: RelationshipDescription, in entity: EntityDescription, entities: [String: EntityDescription]) throws {
        if relationship.destinationEntity == nil {
            guard let name = relationship.destinationEntityName else {
                throw invalid("Relationship '\(entity.name).\(relationship.name)' has no destination entity.", key: relationship.name)
            }
            guard let destination = entities[name] else {
                throw invalid("Relationship '\(entity.name).\(relationship.name)' names destination entity '\(name)', which is not in the model.", key: relationship.name)
            }
            relationship.destinationEntity = destination
        } else if let destination = relationship.destinationEntity, entities[destination.name] !== destination {
            throw invalid("Relationship '\(entity.name).\(relationship.name)' points to entity '\(destination.name)', which is not in the model.", key: relationship.name)
        }
        if relationship.inverseRelationship == nil, let inverseName = relationship.inverseName {
            let destination = relationship.destinationEntity!
            guard let inverse = destination.relationshipsByName[inverseName] else {
                throw invalid("Relationship '\(entity.name).\(relationship.name)' names inverse '\(inverseName)', which entity '\(destination.name)' does not have.", key: relationship.name)
            }
            relationship.inverseRelationship = inverse
        }
    }

    private func checkInverse(of relationship: RelationshipDescription, in entity: EntityDescription) throws {
        guard let inverse = relationship.inverseRelationship else { return }
        let destination = relationship.destinationEntity!
        guard let inverseOwner = inverse.entity, destination.isKindOf(entity: inverseOwner) else {
            throw invalid("The inverse of '\(entity.name).\(relationship.name)' is '\(inverse.entity?.name ?? "?").\(inverse.name)', which is not a relationship of its destination '\(destination.name)'.", key: relationship.name)
        }
        guard let back = inverse.inverseRelationship, back === relationship else {
            throw invalid("Relationship '\(entity.name).\(relationship.name)' names '\(inverseOwner.name).\(inverse.name)' as its inverse, but that relationship does not point back to it.", key: relationship.name)
        }
        guard let inverseDestination = inverse.destinationEntity, entity.isKindOf(entity: inverseDestination) else {
            throw invalid("Relationship '\(inverseOwner.name).\(inverse.name)' is the inverse of '\(entity.name).\(relationship.name)' but its destination is not '\(entity.name)'.", key: inverse.name)
        }
    }

    private func checkConstraintsAndIndexes(of entity: EntityDescription) throws {
        let properties = entity.propertiesByName
        for constraint in entity.uniquenessConstraints {
            for name in constraint {
                guard let property = properties[name] else {
                    throw invalid("A uniqueness constraint of entity '\(entity.name)' names '\(name)', which it does not have.", key: name)
                }
                if let relationship = property as? RelationshipDescription, relationship.isToMany {
                    throw invalid("A uniqueness constraint of entity '\(entity.name)' names to-many relationship '\(name)'.", key: name)
                }
            }
        }
        for index in entity.indexes {
            for element in index.elements where properties[element.propertyName] == nil {
                throw invalid("Fetch index '\(index.name)' of entity '\(entity.name)' names '\(element.propertyName)', which it does not have.", key: element.propertyName)
            }
        }
    }
}
