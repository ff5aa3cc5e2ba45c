import Foundation

/// A fetch request resolved against the model, as the stores execute it.
struct StoreFetch {
    let entity: EntityDescription
    /// `Z_ENT` numbers of the entities whose rows match (the entity and, when
    /// sub-entities are included, its descendants).
    let entityNumbers: Set<Int>
    var predicate: CDPredicate?
    var sortDescriptors: [CDSortDescriptor]
    var limit: Int
    var offset: Int
    var includesValues: Bool
    /// `relationshipKeyPathsForPrefetching`, resolved: the relationships of each path.
    let prefetchPaths: [[RelationshipDescription]]
    /// The columns, grouping and filters of a dictionary fetch; nil for other result types.
    let dictionary: DictionaryFetch?

    init<T>(_ request: FetchRequest<T>, model: ManagedObjectModel) throws {
        guard let entity = request.entity
            ?? request.entityName.flatMap({ model.layout.entitiesByName[$0] })
            ?? (request.entityName == nil ? Self.entity(boundTo: T.self, in: model) : nil) else {
            throw CoreDataError(.invalidFetchRequest, "The fetch request names entity '\(request.entityName ?? "nil")', which the model does not have.")
        }
        guard entity.model === model else {
            throw CoreDataError(.invalidFetchRequest, "The fetch request's entity '\(entity.name)' belongs to another model.")
        }
        self.entity = entity
        let entities = request.includesSubentities ? entity.selfAndDescendants : [entity]
        entityNumbers = Set(entities.map { $0.slots.number })
        predicate = request.predicate
        sortDescriptors = request.sortDescriptors ?? []
        limit = max(0, request.fetchLimit)
        offset = max(0, request.fetchOffset)
        includesValues = request.includesPropertyValues
        prefetchPaths = try (request.relationshipKeyPathsForPrefetching ?? []).map { try Self.relationships(alongKeyPath: $0, from: entity) }
        if request.resultType == .dictionaryResultType {
            dictionary = try DictionaryFetch(request, entity: entity)
        } else {
            guard (request.propertiesToGroupBy ?? []).isEmpty, request.havingPredicate == nil else {
                throw CoreDataError(.invalidFetchRequest, "propertiesToGroupBy and havingPredicate need resultType .dictionaryResultType.")
            }
            dictionary = nil
        }
        let columnNames = Set(dictionary?.columns.map(\.name) ?? [])
        for descriptor in sortDescriptors where !columnNames.contains(descriptor.key) {
            try Self.checkKeyPath(descriptor.key, from: entity)
        }
        if let predicate { try Self.checkKeyPaths(in: predicate, from: entity) }
    }

    /// Verifies every key path a predicate compares, so that an unknown key is a typed
    /// error from the fetch, before any evaluation could reach it.
    static func checkKeyPaths(in predicate: CDPredicate, from entity: EntityDescription) throws {
        switch predicate.kind {
        case .constant:
            return
        case .compound(let compound):
            for subpredicate in compound.subpredicates { try checkKeyPaths(in: subpredicate, from: entity) }
        case .comparison(let comparison):
            for expression in [comparison.leftExpression, comparison.rightExpression] {
                if case .keyPath(let keyPath) = expression.kind { try checkKeyPath(keyPath, from: entity) }
            }
        }
    }

    /// The relationships a prefetching key path ("children.parent") walks through.
    static func relationships(alongKeyPath keyPath: String, from entity: EntityDescription) throws -> [RelationshipDescription] {
        var current = entity
        var path: [RelationshipDescription] = []
        for name in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let slot = current.slots.slotByName[name], let relationship = current.slots.relationships[slot],
                  let destination = relationship.destinationEntity else {
                throw CoreDataError(.invalidFetchRequest, "Prefetching key path '\(keyPath)': '\(name)' is not a relationship of \(current.name).", key: keyPath)
            }
            path.append(relationship)
            current = destination
        }
        return path
    }

    /// The entity whose objects are instances of `type` (a registered subclass).
    static func entity(boundTo type: Any.Type, in model: ManagedObjectModel) -> EntityDescription? {
        guard let objectType = type as? ManagedObject.Type, objectType != ManagedObject.self else { return nil }
        return model.entities.first { ManagedObjectClasses.resolve($0) == objectType }
    }

    /// Verifies that `keyPath` names properties, through to-one relationships only.
    static func checkKeyPath(_ keyPath: String, from entity: EntityDescription) throws {
        var current = entity
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, name) in components.enumerated() {
            guard let property = current.slots.slot(forKey: name).map({ current.slots.properties[$0] }) else {
                throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': entity '\(current.name)' has no property '\(name)'.", key: keyPath)
            }
            let isLast = index == components.count - 1
            if let relationship = property as? RelationshipDescription, relationship.isToMany {
                throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(current.name).\(name)' is a to-many relationship, which a fetch cannot compare or sort by here.", key: keyPath)
            }
            if isLast { return }
            guard let relationship = property as? RelationshipDescription, let destination = relationship.destinationEntity else {
                throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(current.name).\(name)' is an attribute, so the path cannot go on past it.", key: keyPath)
            }
            current = destination
        }
    }
}

/// One row a store returns for a fetch: the object's ID and, when values were read, its values.
struct FetchedRow {
    let id: ManagedObjectID
    let snapshot: RowSnapshot?
}

/// A row read for a to-many relationship, with the object that holds it.
struct RelatedRow {
    let owner: ManagedObjectID
    let row: FetchedRow
}
