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
            var steps = try toManyJoin(relationship, from: current, to: next, keyPath: keyPath)
            if collection == nil {
                let first = steps.removeFirst()
                collection = SQLCollection(from: [first.table], conditions: [first.on], element: SQLScalar(sql: "", kind: .null))
                if current.alias != source.alias { collection!.owner = "\(current.alias).Z_PK" }
            }
            collection!.from += steps.map { "JOIN \($0.table) ON \($0.on)" }
            collection!.orderColumn = orderColumn(of: relationship, reaching: next)
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

    /// The column ordering an ordered relationship's elements: on the destination row, or
    /// in the join table of an ordered many-to-many relationship.
    private func orderColumn(of relationship: RelationshipDescription, reaching next: SQLSource) -> String? {
        guard relationship.isOrdered else { return nil }
        if let join = schema.joinTable(for: relationship) { return join.orderColumn.map { "j\(next.alias).\($0)" } }
        return schema.orderColumn(for: relationship).map { "\(next.alias).\($0)" }
    }

    /// The tables a to-many step adds (`<table> alias`, or the join table and then the
    /// destination), each with the condition tying it to the row before.
    private func toManyJoin(_ relationship: RelationshipDescription, from: SQLSource, to next: SQLSource, keyPath: String) throws -> [(table: String, on: String)] {
        let destinationTable = schema.table(for: next.entity).name
        if let join = schema.joinTable(for: relationship) {
            let owns = join.owner === relationship
            let sourceColumn = owns ? join.ownerColumn : join.memberColumn
            let targetColumn = owns ? join.memberColumn : join.ownerColumn
            let link = "j" + next.alias
            return [("\(join.name) \(link)", "\(link).\(sourceColumn) = \(from.alias).Z_PK"),
                    ("\(destinationTable) \(next.alias)", "\(next.alias).Z_PK = \(link).\(targetColumn)")]
        }
        guard let inverse = relationship.inverseRelationship, let owner = inverse.entity,
              let slot = owner.slots.slotByName[inverse.name] else {
            throw CoreDataError(.invalidPredicate, "Key path '\(keyPath)': '\(relationship.name)' has no inverse, so a store query cannot follow it.", key: keyPath)
        }
        let mapping = schema.mapping(for: owner)
        let column = mapping.table.columns[mapping.valueColumn[slot]!].name
        return [("\(destinationTable) \(next.alias)", "\(next.alias).\(column) = \(from.alias).Z_PK")]
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
