import Foundation

/// A fetch request resolved against the model, as the stores execute it.
struct StoreFetch {
    let entity: EntityDescription
    /// `Z_ENT` numbers of the entities whose rows match (the entity and, when
    /// sub-entities are included, its descendants).
    private(set) var entityNumbers: Set<Int>
    var predicate: CDPredicate?
    var sortDescriptors: [CDSortDescriptor]
    var limit: Int
    var offset: Int
    var includesValues: Bool
    /// Objects whose rows never match: those a context evaluates itself because they have
    /// unsaved changes (see `ManagedObjectContext.countObjects`). Each store leaves out
    /// only its own rows.
    var excludedIDs: [ManagedObjectID] = []
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
            try ResolvedKeyPath(descriptor.key, from: entity).requireToOne(in: .sortDescriptor)
        }
        if let predicate { try Self.checkKeyPaths(in: predicate, from: entity) }
    }

    /// Verifies every key path in a predicate — in comparisons, functions, aggregates,
    /// `TERNARY`, index access and `SUBQUERY` (whose variable's keys are checked against
    /// the collection's entity) — so that an unknown key is a typed error from the fetch,
    /// before any evaluation could reach it.
    static func checkKeyPaths(in predicate: CDPredicate, from entity: EntityDescription, variables: [String: EntityDescription] = [:]) throws {
        switch predicate.kind {
        case .constant:
            return
        case .compound(let compound):
            for subpredicate in compound.subpredicates { try checkKeyPaths(in: subpredicate, from: entity, variables: variables) }
        case .comparison(let comparison):
            try checkKeyPaths(in: comparison.leftExpression, from: entity, variables: variables)
            try checkKeyPaths(in: comparison.rightExpression, from: entity, variables: variables)
            guard comparison.comparisonPredicateModifier == .direct else { return }
            let op = comparison.predicateOperatorType
            if op != .contains, let keyPath = toManyKeyPath(comparison.leftExpression, from: entity, variables: variables) {
                throw CoreDataError.toManyKeyNotAllowed(keyPath, in: .predicate(comparison.predicateFormat))
            }
            if op != .in, let keyPath = toManyKeyPath(comparison.rightExpression, from: entity, variables: variables) {
                throw CoreDataError.toManyKeyNotAllowed(keyPath, in: .predicate(comparison.predicateFormat))
            }
        }
    }

    /// The key path of `expression` when it yields a to-many collection (it goes through a
    /// to-many relationship and no collection operator reduces it). Its keys were checked
    /// before, so a path that does not resolve is not one.
    private static func toManyKeyPath(_ expression: CDExpression, from entity: EntityDescription, variables: [String: EntityDescription]) -> String? {
        let start: EntityDescription?
        let keyPath: String
        switch expression.kind {
        case .keyPath(let path): (start, keyPath) = (entity, path)
        case .member(let base, let path):
            guard case .variable(let name) = base.kind else { return nil }
            (start, keyPath) = (variables[name], path)
        default: return nil
        }
        guard let start, let resolved = try? ResolvedKeyPath(keyPath, from: start), resolved.yieldsToMany else { return nil }
        return keyPath
    }

    /// Verifies the key paths of one expression; returns the entity of the objects it
    /// yields, when it yields objects of a known entity (for `SUBQUERY` variables).
    @discardableResult
    static func checkKeyPaths(in expression: CDExpression, from entity: EntityDescription, variables: [String: EntityDescription]) throws -> EntityDescription? {
        switch expression.kind {
        case .constantValue, .anyKey:
            return nil
        case .evaluatedObject:
            return entity
        case .variable(let name):
            return variables[name]
        case .keyPath(let keyPath):
            return try ResolvedKeyPath(keyPath, from: entity).destination
        case .member(let base, let keyPath):
            guard let baseEntity = try checkKeyPaths(in: base, from: entity, variables: variables) else { return nil }
            // From a variable's object, or from what the base yields: one object or a collection.
            let fromCollection: Bool? = if case .variable = base.kind { false } else { nil }
            return try ResolvedKeyPath(keyPath, from: baseEntity, fromCollection: fromCollection).destination
        case .index(let base, let index):
            if case .expression(let position) = index { try checkKeyPaths(in: position, from: entity, variables: variables) }
            let element = try checkKeyPaths(in: base, from: entity, variables: variables)
            return index == .size ? nil : element
        case .function(_, let arguments), .aggregate(let arguments):
            for argument in arguments { try checkKeyPaths(in: argument, from: entity, variables: variables) }
            return nil
        case .customFunction(let target, _, let arguments):
            for argument in [target] + arguments { try checkKeyPaths(in: argument, from: entity, variables: variables) }
            return nil
        case .subquery(let collection, let variable, let predicate):
            let element = try checkKeyPaths(in: collection, from: entity, variables: variables)
            var inner = variables
            inner[variable] = element
            if element == nil { inner.removeValue(forKey: variable) }
            try checkKeyPaths(in: predicate, from: entity, variables: inner)
            return element
        case .conditional(let predicate, let whenTrue, let whenFalse):
            try checkKeyPaths(in: predicate, from: entity, variables: variables)
            let yes = try checkKeyPaths(in: whenTrue, from: entity, variables: variables)
            let no = try checkKeyPaths(in: whenFalse, from: entity, variables: variables)
            return yes === no ? yes : nil
        case .unionSet(let a, let b), .intersectSet(let a, let b), .minusSet(let a, let b):
            let left = try checkKeyPaths(in: a, from: entity, variables: variables)
            let right = try checkKeyPaths(in: b, from: entity, variables: variables)
            return left === right ? left : nil
        }
    }

    /// The same fetch over those of its entities in `numbers`: one store's share of a
    /// fetch spanning several stores.
    func narrowed(to numbers: Set<Int>) -> StoreFetch {
        var narrowed = self
        narrowed.entityNumbers.formIntersection(numbers)
        return narrowed
    }

    /// `items` (matches in fetch order) without the first `offset`, at most `limit` of them.
    func windowed<T>(_ items: [T]) -> [T] {
        guard offset > 0 || (limit > 0 && limit < items.count) else { return items }
        let start = min(offset, items.count)
        return Array(items[start ..< (limit > 0 ? start + min(limit, items.count - start) : items.count)])
    }

    /// How many of `total` matches the window keeps.
    func windowedCount(_ total: Int) -> Int {
        let afterOffset = max(0, total - offset)
        return limit > 0 ? min(afterOffset, limit) : afterOffset
    }

    /// How many matches the window reaches, from the first: `offset + limit`, or nil when
    /// there is no limit (saturating: a huge `fetchLimit` must not overflow).
    var windowEnd: Int? {
        guard limit > 0 else { return nil }
        let (end, overflow) = offset.addingReportingOverflow(limit)
        return overflow ? Int.max : end
    }

    /// The relationships a prefetching key path ("children.parent") walks through.
    static func relationships(alongKeyPath keyPath: String, from entity: EntityDescription) throws -> [RelationshipDescription] {
        let resolved = try ResolvedKeyPath(keyPath, from: entity)
        var owner = entity
        for (step, name) in zip(resolved.steps, ResolvedKeyPath.components(of: keyPath)) {
            guard let destination = step.relationship?.destinationEntity else {
                throw CoreDataError.notARelationship(name, of: owner, keyPath: keyPath)
            }
            owner = destination
        }
        return resolved.crossedRelationships
    }

    /// The entity whose objects are instances of `type` (a registered subclass).
    static func entity(boundTo type: Any.Type, in model: ManagedObjectModel) -> EntityDescription? {
        guard let objectType = type as? ManagedObject.Type else { return nil }
        return model.layout.classBindings.entity(boundTo: objectType, among: model.entities)
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
