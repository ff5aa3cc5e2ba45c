import Foundation

/// Key paths to SQL: attributes and to-one steps become columns through LEFT JOINs; a
/// to-many step opens a collection (the FROM of a correlated subquery) that the following
/// steps continue inside; collection operators (`@count`, `@sum`, `@avg`, `@min`,
/// `@max`) turn a collection into an aggregate subquery.
extension SQLiteQuery {
    /// The SQL column for a key path of attributes and to-one relationships (resolved by
    /// `DictionaryFetch`), joining the tables it passes through.
    mutating func column(forKeyPath keyPath: ResolvedKeyPath) throws -> String {
        guard case .scalar(let scalar) = try operand(keyPath.steps[...], from: root, in: nil, whole: keyPath.keyPath) else {
            throw CoreDataError.toManyKeyNotAllowed(keyPath.keyPath, in: .dictionaryFetch)
        }
        return scalar.sql
    }

    /// The operand a key path yields from `source` (or from each element of `collection`).
    mutating func operand(keyPath components: [String], from source: SQLSource, in collection: SQLCollection?, whole keyPath: String) throws -> SQLOperand {
        let resolved = try ResolvedKeyPath(components: components, from: source.entity, keyPath: keyPath, fromCollection: collection != nil)
        return try operand(resolved.steps[...], from: source, in: collection, whole: keyPath)
    }

    /// The operand the resolved `steps` yield from `source` (or from each element of `collection`).
    private mutating func operand(_ steps: ArraySlice<ResolvedKeyPath.Step>, from source: SQLSource, in collection: SQLCollection?, whole keyPath: String) throws -> SQLOperand {
        if let index = steps.firstIndex(where: { if case .collectionOperator = $0 { true } else { false } }),
           case .collectionOperator(let op) = steps[index] {
            let base: SQLOperand = if steps[..<index].isEmpty, let collection {
                .collection(collection)
            } else {
                try operand(steps[..<index], from: source, in: collection, whole: keyPath)
            }
            return try collectionOperator(op, of: base, then: steps[(index + 1)...], whole: keyPath)
        }
        var current = source
        var collection = collection
        var walked = ""
        for (position, step) in zip(steps.indices, steps) {
            let isLast = position == steps.endIndex - 1
            let mapping = schema.mapping(for: current.entity)
            switch step {
            case .attribute(let attribute, let slot):
                guard let column = mapping.valueColumn[slot] else {
                    throw CoreDataError.transientKeyNotStored(attribute, of: current.entity, keyPath: keyPath)
                }
                let scalar = SQLScalar(sql: "\(current.alias).\(mapping.table.columns[column].name)", kind: SQLValueKind(attribute))
                return finish(scalar, collection, source: nil)
            case .toOne(let relationship, let slot):
                guard let destination = relationship.destinationEntity, let valueColumn = mapping.valueColumn[slot] else {
                    throw CoreDataError.transientKeyNotStored(relationship, of: current.entity, keyPath: keyPath)
                }
                let column = "\(current.alias).\(mapping.table.columns[valueColumn].name)"
                if isLast { return finish(SQLScalar(sql: column, kind: .object(ObjectIdentifier(destination.rootEntity))), collection, source: nil) }
                walked += (walked.isEmpty ? "" : ".") + relationship.name
                current = join(toOne: destination, on: column, path: "\(source.alias):\(walked)", into: &collection)
            case .toMany(let relationship, _):
                guard let destination = relationship.destinationEntity else {
                    throw CoreDataError.transientKeyNotStored(relationship, of: current.entity, keyPath: keyPath)
                }
                let next = SQLSource(alias: newAlias(), entity: destination)
                guard let link = SQLiteToManyLink(relationship, schema: schema, alias: next.alias, joinAlias: "j" + next.alias) else {
                    throw CoreDataError(.invalidPredicate, "Key path '\(keyPath)': '\(relationship.name)' has no inverse, so a store query cannot follow it.", key: keyPath)
                }
                let ownedBy = "\(link.ownerColumn) = \(current.alias).Z_PK"
                var opened = collection ?? SQLCollection(from: [link.first] + link.joins, conditions: [ownedBy], element: SQLScalar(sql: "", kind: .null))
                if collection == nil {
                    if current.alias != source.alias { opened.owner = "\(current.alias).Z_PK" }
                } else {
                    opened.from += ["JOIN \(link.first) ON \(ownedBy)"] + link.joins
                }
                opened.orderColumn = relationship.isOrdered ? link.orderColumn : nil
                collection = opened
                current = next
                walked = ""
                if isLast {
                    let element = SQLScalar(sql: "\(next.alias).Z_PK", kind: .object(ObjectIdentifier(destination.rootEntity)), isNullable: false)
                    return finish(element, collection, source: next)
                }
            case .collectionOperator:
                continue // Split off above.
            }
        }
        // An empty path: the source itself.
        return finish(SQLScalar(sql: "\(current.alias).Z_PK", kind: .object(ObjectIdentifier(current.entity.rootEntity)), isNullable: false), collection, source: current)
    }

    private func finish(_ element: SQLScalar, _ collection: SQLCollection?, source: SQLSource?) -> SQLOperand {
        guard var collection else { return .scalar(element) }
        collection.element = element
        collection.source = source
        return .collection(collection)
    }

    /// A LEFT JOIN to the row a to-one column points at: in the collection being built,
    /// else in the innermost scope (reusing a join an enclosing scope already made).
    private mutating func join(toOne destination: EntityDescription, on column: String, path: String, into collection: inout SQLCollection?) -> SQLSource {
        if collection == nil, let known = scopes.reversed().lazy.compactMap({ $0.aliasByPath[path] }).first { return known }
        let next = SQLSource(alias: newAlias(), entity: destination)
        let clause = "LEFT JOIN \(schema.table(for: destination).name) \(next.alias) ON \(next.alias).Z_PK = \(column)"
        if collection != nil {
            collection!.from.append(clause)
        } else {
            scopes[scopes.count - 1].joins.append(clause)
            scopes[scopes.count - 1].aliasByPath[path] = next
        }
        return next
    }

    // MARK: - Collection operators

    /// `collection.@op` (then the steps `rest` read from each element, as `children.@max.int64`).
    mutating func collectionOperator(_ op: CollectionOperator, of base: SQLOperand, then rest: ArraySlice<ResolvedKeyPath.Step>, whole keyPath: String) throws -> SQLOperand {
        guard case .collection(var collection) = base else {
            if case .constant = base { throw CoreDataError(.invalidPredicate, "'\(keyPath)': collection operators on constants are folded before reaching the store.", key: keyPath) }
            throw CoreDataError.collectionOperatorNeedsCollection(op.rawValue, keyPath: keyPath, found: "a single value")
        }
        // The rest of the path applies to each element; another operator there would apply
        // per element in memory, not to the whole collection.
        if let nested = rest.first(where: { if case .collectionOperator = $0 { true } else { false } }), case .collectionOperator(let inner) = nested {
            throw CoreDataError(.invalidPredicate, "'\(keyPath)': the collection operator \(inner.rawValue) cannot follow \(op.rawValue) in a store query (the path after \(op.rawValue) is read from each element).", key: keyPath)
        }
        if op == .distinctUnionOfObjects || op == .unionOfObjects {
            guard !rest.isEmpty, let source = collection.source else {
                throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op.rawValue) needs a key after it.", key: keyPath)
            }
            return try operand(rest, from: source, in: collection, whole: keyPath)
        }
        if !rest.isEmpty {
            guard let source = collection.source, case .collection(let values) = try operand(rest, from: source, in: collection, whole: keyPath) else {
                throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op.rawValue) must come after a to-many relationship.", key: keyPath)
            }
            collection = values
        }
        let element = collection.element
        switch op {
        case .count:
            let count = "(SELECT count(*) \(collection.body()))"
            return .scalar(SQLScalar(sql: collection.aggregate(count), kind: .number, isNullable: collection.owner != nil))
        case .sum, .average:
            guard element.kind == .number || element.kind == .any else {
                throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op.rawValue) needs numbers.", key: keyPath)
            }
            let function = op == .sum ? SQLiteFunctions.sumAggregate : SQLiteFunctions.averageAggregate
            let sql = "(SELECT \(function)(\(element.sql)) \(collection.body()))"
            return .scalar(SQLScalar(sql: collection.aggregate(sql), kind: .number, isNullable: op == .average || collection.owner != nil))
        case .minimum, .maximum:
            let function = op == .minimum ? "min" : "max"
            return .scalar(SQLScalar(sql: "(SELECT \(function)(\(element.sql)) \(collection.body()))", kind: element.kind))
        default:
            throw CoreDataError(.invalidPredicate, "'\(keyPath)': the collection operator \(op.rawValue) cannot run in a store query.", key: keyPath)
        }
    }
}
