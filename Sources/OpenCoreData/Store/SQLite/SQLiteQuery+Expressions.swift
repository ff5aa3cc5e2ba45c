import Foundation

/// Expressions to SQL. A subtree without key paths, `SELF` or variables is evaluated once
/// in Swift by the evaluator and bound as a parameter; arithmetic compiles to native SQL
/// where SQLite gives the evaluator's answer; `TERNARY` becomes `CASE`; what a store
/// cannot compute (`FUNCTION`, set operations on columns…) is a typed `.invalidPredicate`.
extension SQLiteQuery {
    mutating func operand(_ expression: CDExpression) throws -> SQLOperand {
        if Self.isConstant(expression) { return .constant(try Self.fold(expression)) }
        switch expression.kind {
        case .constantValue(let value):
            return .constant(value)
        case .evaluatedObject:
            return .scalar(SQLScalar(sql: "t0.Z_PK", kind: .object(ObjectIdentifier(entity.rootEntity)), isNullable: false))
        case .keyPath(let keyPath):
            return try operand(keyPath: Self.components(keyPath), from: root, in: nil, whole: keyPath)
        case .variable(let name):
            guard let source = variables[name] else { throw unboundVariable(name) }
            return .scalar(SQLScalar(sql: "\(source.alias).Z_PK", kind: .object(ObjectIdentifier(source.entity.rootEntity)), isNullable: false))
        case .member(let base, let keyPath):
            return try member(base, keyPath)
        case .aggregate(let elements):
            return .list(try elements.map { try operand($0) })
        case .subquery(let collection, let variable, let predicate):
            return try subquery(collection, variable, predicate)
        case .index(let base, let index):
            return try self.index(base, index, expression)
        case .function(let name, let arguments):
            return try function(name, arguments, expression)
        case .conditional(let predicate, let whenTrue, let whenFalse):
            let condition = try compile(predicate)
            let (yes, no) = (try scalar(operand(whenTrue), expression), try scalar(operand(whenFalse), expression))
            guard yes.kind == no.kind || yes.kind == .null || no.kind == .null else {
                throw CoreDataError(.invalidPredicate, "\(expression.format): the two results of TERNARY have different types, which a store query cannot compare.")
            }
            return .scalar(SQLScalar(sql: "(CASE WHEN \(condition) THEN \(yes.sql) ELSE \(no.sql) END)", kind: yes.kind == .null ? no.kind : yes.kind))
        case .customFunction, .unionSet, .intersectSet, .minusSet, .anyKey:
            throw CoreDataError(.invalidPredicate, "\(expression.format) cannot run in a store query: FUNCTION, UNION, INTERSECT, MINUS over stored values and ANYKEY are evaluated in memory only.")
        }
    }

    static func components(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// `base.keyPath`: from a `SUBQUERY` variable's row, or on from a collection.
    private mutating func member(_ base: CDExpression, _ keyPath: String) throws -> SQLOperand {
        let path = Self.components(keyPath)
        if case .variable(let name) = base.kind {
            guard let source = variables[name] else { throw unboundVariable(name) }
            return try operand(keyPath: path, from: source, in: nil, whole: "$\(name).\(keyPath)")
        }
        if case .index(let collection, let position) = base.kind, position != .size {
            return try index(collection, position, base, then: path)
        }
        switch try operand(base) {
        case .collection(let collection):
            guard let source = collection.source else {
                if path.count == 1, path[0].hasPrefix("@") {
                    return try collectionOperator(CollectionOperator(named: path[0], keyPath: keyPath), of: .collection(collection), then: [], whole: keyPath)
                }
                throw CoreDataError(.invalidPredicate, "'\(base.format).\(keyPath)': keys cannot be read from these values in a store query.")
            }
            return try operand(keyPath: path, from: source, in: collection, whole: keyPath)
        case .scalar(let scalar):
            throw CoreDataError(.invalidPredicate, "'\(base.format).\(keyPath)': keys cannot be read from \(scalar.kind) values in a store query.")
        case .constant, .list:
            throw CoreDataError(.invalidPredicate, "'\(base.format).\(keyPath)': keys cannot be read from this value in a store query.")
        }
    }

    /// `SUBQUERY(collection, $variable, predicate)`: the collection's elements that match,
    /// with `$variable` standing for the element's row inside `predicate`.
    private mutating func subquery(_ collectionExpression: CDExpression, _ variable: String, _ predicate: CDPredicate) throws -> SQLOperand {
        guard case .collection(var collection) = try operand(collectionExpression), let source = collection.source else {
            throw CoreDataError(.invalidPredicate, "SUBQUERY(\(collectionExpression.format), $\(variable), …) needs a to-many relationship as its collection in a store query.")
        }
        // SUBQUERY over a nil collection is an empty collection, not nil.
        collection.owner = nil
        let shadowed = variables[variable]
        variables[variable] = source
        defer { variables[variable] = shadowed }
        collection.conditions.append(try inScope(&collection) { try $0.compile(predicate) })
        return .collection(collection)
    }

    /// Compiles `body` with its joins going into `collection`'s FROM.
    mutating func inScope<T>(_ collection: inout SQLCollection, _ body: (inout SQLiteQuery) throws -> T) rethrows -> T {
        scopes.append(Scope())
        defer {
            let scope = scopes.removeLast()
            collection.from += scope.joins
        }
        return try body(&self)
    }

    /// `collection[SIZE]`, and `[FIRST]`, `[LAST]`, `[n]` of an ordered relationship (then
    /// the key path `then` read from that element).
    private mutating func index(_ base: CDExpression, _ index: CDExpression.Index, _ expression: CDExpression, then path: [String] = []) throws -> SQLOperand {
        guard case .collection(var collection) = try operand(base) else {
            throw CoreDataError(.invalidPredicate, "\(expression.format): a store query can index only to-many relationships.")
        }
        let offset: String
        var descending = false
        switch index {
        case .size:
            return .scalar(SQLScalar(sql: collection.aggregate("(SELECT count(*) \(collection.body()))"), kind: .number, isNullable: collection.owner != nil))
        case .first: offset = "0"
        case .last: offset = "0"; descending = true
        case .expression(let position):
            guard case .constant(let value) = try operand(position), let number = NumericValue(value), case .integer(let n) = number, n >= 0 else {
                throw CoreDataError(.invalidPredicate, "\(expression.format): the index must be a whole, non-negative constant in a store query.")
            }
            offset = bind(.integer(n))
        }
        guard let order = collection.orderColumn else {
            throw CoreDataError(.invalidPredicate, "\(expression.format): [FIRST], [LAST] and [n] need an ordered relationship.")
        }
        if !path.isEmpty {
            guard let source = collection.source,
                  case .collection(let values) = try operand(keyPath: path, from: source, in: collection, whole: path.joined(separator: ".")) else {
                throw CoreDataError(.invalidPredicate, "\(expression.format): keys can be read only from an element that is an object.")
            }
            collection = values
        }
        let element = collection.element
        let body = collection.body(keepingNils: !path.isEmpty)
        return .scalar(SQLScalar(sql: "(SELECT \(element.sql) \(body) ORDER BY \(order) \(descending ? "DESC" : "ASC") LIMIT 1 OFFSET \(offset))", kind: element.kind))
    }

    // MARK: - Scalars

    /// The operand as one SQL value, binding a constant as its column would store it.
    mutating func scalar(_ operand: SQLOperand, _ context: CDExpression? = nil) throws -> SQLScalar {
        switch operand {
        case .scalar(let scalar): return scalar
        case .constant(let value): return try scalar(value)
        case .collection:
            throw CoreDataError.toManyKeyNotAllowed(nil, in: .predicate(context?.format))
        case .list:
            throw CoreDataError(.invalidPredicate, "\(context?.format ?? "An aggregate"): an aggregate is not allowed here.")
        }
    }

    mutating func scalar(_ value: CDValue) throws -> SQLScalar {
        let kind = SQLValueKind(constant: value)
        let stored: SQLValue
        switch value {
        case .null: return SQLScalar(sql: "NULL", kind: .null)
        case .objectID(let id) where !isStored(id):
            // Never nil and never equal to a row of this store (its primary key may be).
            return SQLScalar(sql: bind(.integer(id.primaryKey ?? 0)), kind: .incomparable, isNullable: false)
        case .array: throw CoreDataError(.invalidPredicate, "The collection \(value) is not allowed here.")
        case _ where kind == .incomparable: return SQLScalar(sql: "NULL", kind: .incomparable)
        case .bool(let flag): stored = .integer(flag ? 1 : 0)
        case .int64(let number): stored = .integer(number)
        case .double(let number): stored = .real(number)
        case .decimal(let number): stored = .number(number)
        case .string(let text): stored = .text(text)
        case .date(let date): stored = .real(date.timeIntervalSinceReferenceDate)
        case .data(let data): stored = .blob(data)
        case .uuid(let uuid): stored = .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .url(let url): stored = .text(url.absoluteString)
        case .objectID(let id): stored = .integer(id.primaryKey ?? 0)
        }
        return SQLScalar(sql: bind(stored), kind: kind, isNullable: false)
    }

    /// Whether `id` names a row of the queried store (not a temporary object or a row of
    /// another store, which can share its primary key).
    func isStored(_ id: ManagedObjectID) -> Bool {
        !id.isTemporaryID && id.store == storeNumber
    }

    /// The kind of a constant as this store compares it: an object ID not of this store
    /// equals nothing.
    func kind(ofConstant value: CDValue) -> SQLValueKind {
        if case .objectID(let id) = value, !isStored(id) { return .incomparable }
        return SQLValueKind(constant: value)
    }

    // MARK: - Constant folding

    /// Whether `expression` reads nothing from the row (so it can be computed once).
    static func isConstant(_ expression: CDExpression) -> Bool {
        switch expression.kind {
        case .constantValue: return true
        case .evaluatedObject, .keyPath, .variable, .subquery, .customFunction, .anyKey: return false
        case .member(let base, _): return isConstant(base)
        case .index(let base, let index):
            if case .expression(let position) = index, !isConstant(position) { return false }
            return isConstant(base)
        case .function(_, let arguments): return arguments.allSatisfy(isConstant)
        case .aggregate(let elements): return elements.allSatisfy(isConstant)
        case .conditional(let predicate, let yes, let no): return isConstant(predicate) && isConstant(yes) && isConstant(no)
        case .unionSet(let a, let b), .intersectSet(let a, let b), .minusSet(let a, let b): return isConstant(a) && isConstant(b)
        }
    }

    static func isConstant(_ predicate: CDPredicate) -> Bool {
        switch predicate.kind {
        case .constant: return true
        case .compound(let compound): return compound.subpredicates.allSatisfy(isConstant)
        case .comparison(let comparison): return isConstant(comparison.leftExpression) && isConstant(comparison.rightExpression)
        }
    }

    /// The value of a constant expression, computed by the in-memory evaluator.
    static func fold(_ expression: CDExpression) throws -> CDValue {
        if case .constantValue(let value) = expression.kind { return value }
        let value = try PredicateEvaluator.value(of: expression, in: EvaluationScope(object: nil))
        guard let converted = CDValue(converting: EvaluatedCollection.plain(value)) else {
            throw CoreDataError(.invalidPredicate, "\(expression.format) gives a value a store query cannot use.")
        }
        return converted
    }

    func unboundVariable(_ name: String) -> CoreDataError {
        CoreDataError(.invalidPredicate, "The variable $\(name) has no value; substitute it (withSubstitutionVariables) before fetching.", key: name)
    }
}
