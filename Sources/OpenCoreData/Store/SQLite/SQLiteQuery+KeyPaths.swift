import Foundation

/// Key paths to SQL: attributes and to-one steps become columns through LEFT JOINs; a
/// to-many step opens a collection (the FROM of a correlated subquery) that the following
/// steps continue inside; collection operators (`@count`, `@sum`, `@avg`, `@min`,
/// `@max`) turn a collection into an aggregate subquery.
extension SQLiteQuery {
    /// The SQL column for a key path of attributes and to-one relationships, joining
    /// the tables it passes through.
    mutating func column(forKeyPath keyPath: String) throws -> String {
        guard case .scalar(let scalar) = try operand(keyPath: Self.components(keyPath), from: root, in: nil, whole: keyPath) else {
            throw toManyNotAllowed(keyPath)
        }
        return scalar.sql
    }

    /// The operand a key path yields from `source` (or from each element of `collection`).
    mutating func operand(keyPath components: [String], from source: SQLSource, in collection: SQLCollection?, whole keyPath: String) throws -> SQLOperand {
        if let index = components.firstIndex(where: { $0.hasPrefix("@") }) {
            let base = components[..<index].isEmpty && collection != nil
                ? SQLOperand.collection(collection!)
                : try operand(keyPath: Array(components[..<index]), from: source, in: collection, whole: keyPath)
            return try collectionOperator(components[index], of: base, then: Array(components[(index + 1)...]), whole: keyPath)
        }
        var current = source
        var collection = collection
        var walked = ""
        for (index, name) in components.enumerated() {
            let isLast = index == components.count - 1
            guard let slot = current.entity.slots.slot(forKey: name) else { throw unknownKey(keyPath, current.entity, name) }
            let mapping = schema.mapping(for: current.entity)
            if let attribute = current.entity.slots.attributes[slot] {
                guard isLast else {
                    throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(current.entity.name).\(name)' is an attribute, so the path cannot go on past it.", key: keyPath)
                }
                guard let column = mapping.valueColumn[slot] else {
                    throw CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(current.entity.name).\(name)' is transient, so a store query cannot use it.", key: keyPath)
                }
                let scalar = SQLScalar(sql: "\(current.alias).\(mapping.table.columns[column].name)", kind: SQLValueKind(attribute))
                return finish(scalar, collection, source: nil)
            }
            let relationship = current.entity.slots.relationships[slot]!
            let destination = relationship.destinationEntity!
            if !relationship.isToMany {
                let column = "\(current.alias).\(mapping.table.columns[mapping.valueColumn[slot]!].name)"
                if isLast { return finish(SQLScalar(sql: column, kind: .object(ObjectIdentifier(destination.rootEntity))), collection, source: nil) }
                walked += (walked.isEmpty ? "" : ".") + name
                current = join(toOne: destination, on: column, path: "\(source.alias):\(walked)", into: &collection)
                continue
            }
            let next = SQLSource(alias: newAlias(), entity: destination)
            guard let link = SQLiteToManyLink(relationship, schema: schema, alias: next.alias, joinAlias: "j" + next.alias) else {
                throw CoreDataError(.invalidPredicate, "Key path '\(keyPath)': '\(relationship.name)' has no inverse, so a store query cannot follow it.", key: keyPath)
            }
            let ownedBy = "\(link.ownerColumn) = \(current.alias).Z_PK"
            if collection == nil {
                collection = SQLCollection(from: [link.first] + link.joins, conditions: [ownedBy], element: SQLScalar(sql: "", kind: .null))
                if current.alias != source.alias { collection!.owner = "\(current.alias).Z_PK" }
            } else {
                collection!.from += ["JOIN \(link.first) ON \(ownedBy)"] + link.joins
            }
            collection!.orderColumn = relationship.isOrdered ? link.orderColumn : nil
            current = next
            walked = ""
            if isLast {
                let element = SQLScalar(sql: "\(next.alias).Z_PK", kind: .object(ObjectIdentifier(destination.rootEntity)), isNullable: false)
                return finish(element, collection, source: next)
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

    /// `collection.@op` (then `rest` read from each element, as `children.@max.int64`).
    mutating func collectionOperator(_ op: String, of base: SQLOperand, then rest: [String], whole keyPath: String) throws -> SQLOperand {
        guard case .collection(var collection) = base else {
            if case .constant = base { throw CoreDataError(.invalidPredicate, "'\(keyPath)': collection operators on constants are folded before reaching the store.", key: keyPath) }
            throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op) needs a to-many relationship before it.", key: keyPath)
        }
        // As in memory (`CollectionOperators`): what follows @count reads the count, a number.
        if op == "@count", !rest.isEmpty {
            throw CoreDataError(.invalidPredicate, "'\(keyPath)': @count gives a number, so the key path cannot go on past it.", key: keyPath)
        }
        // The rest of the path applies to each element; another operator there would apply
        // per element in memory (an error on an attribute's value), not to the whole collection.
        if let nested = rest.first(where: { $0.hasPrefix("@") }) {
            throw CoreDataError(.invalidPredicate, "'\(keyPath)': the collection operator \(nested) cannot follow \(op) in a store query (the path after \(op) is read from each element).", key: keyPath)
        }
        if op == "@distinctUnionOfObjects" || op == "@unionOfObjects" {
            guard !rest.isEmpty, let source = collection.source else {
                throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op) needs a key after it.", key: keyPath)
            }
            return try operand(keyPath: rest, from: source, in: collection, whole: keyPath)
        }
        if !rest.isEmpty {
            guard let source = collection.source, case .collection(let values) = try operand(keyPath: rest, from: source, in: collection, whole: keyPath) else {
                throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op) must come after a to-many relationship.", key: keyPath)
            }
            collection = values
        }
        let element = collection.element
        switch op {
        case "@count":
            let count = "(SELECT count(*) \(collection.body()))"
            return .scalar(SQLScalar(sql: collection.aggregate(count), kind: .number, isNullable: collection.owner != nil))
        case "@sum", "@avg":
            guard element.kind == .number || element.kind == .any else {
                throw CoreDataError(.invalidPredicate, "'\(keyPath)': \(op) needs numbers.", key: keyPath)
            }
            let function = op == "@sum" ? SQLiteFunctions.sumAggregate : SQLiteFunctions.averageAggregate
            let sql = "(SELECT \(function)(\(element.sql)) \(collection.body()))"
            return .scalar(SQLScalar(sql: collection.aggregate(sql), kind: .number, isNullable: op == "@avg" || collection.owner != nil))
        case "@min", "@max":
            let function = op == "@min" ? "min" : "max"
            return .scalar(SQLScalar(sql: "(SELECT \(function)(\(element.sql)) \(collection.body()))", kind: element.kind))
        default:
            throw CoreDataError(.invalidPredicate, "'\(keyPath)': the collection operator \(op) cannot run in a store query.", key: keyPath)
        }
    }

    // MARK: - Errors

    func unknownKey(_ keyPath: String, _ entity: EntityDescription, _ name: String) -> CoreDataError {
        CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': entity '\(entity.name)' has no property '\(name)'.", key: keyPath)
    }

    func toManyNotAllowed(_ keyPath: String) -> CoreDataError {
        CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': a to-many key is not allowed here (use ANY, ALL, NONE, IN, CONTAINS or a collection operator).", key: keyPath)
    }
}
