import Foundation

/// A dictionary fetch (`resultType = .dictionaryResultType`) resolved against the model:
/// the columns of each dictionary, the grouping, the HAVING filter, DISTINCT. Both stores
/// execute it with the same semantics:
/// - a column named by a key path holds the property's value (a to-one relationship's as
///   its `ManagedObjectID`); nil values leave the key out, as `NSDictionary` cannot hold nil;
/// - with `propertiesToGroupBy` or any aggregate, there is one dictionary per group (one
///   group in all without `propertiesToGroupBy`, even over no rows), and every plain
///   column must be grouped by;
/// - aggregates ignore nil values: `count:` counts values (rows, for `SELF`), `sum:` is
///   an integer over integers and a double otherwise, `average:` a double, `min:`/`max:`
///   the attribute's type; over no values all but `count:` are nil (as SQL's);
/// - `havingPredicate` filters the grouped dictionaries, by their keys;
/// - pending changes are not seen: as Core Data documents for `includesPendingChanges`,
///   dictionary results reflect the store.
struct DictionaryFetch {
    enum Aggregate: String, CaseIterable {
        case sum = "sum:", count = "count:", min = "min:", max = "max:", average = "average:"
    }

    enum Source {
        /// A stored property at the end of a to-one key path.
        case keyPath(ResolvedKeyPath)
        /// The row's object ID (`expressionForEvaluatedObject()`).
        case objectID
        /// An aggregate over a to-one key path, or over rows (`count:` of `SELF`) when nil.
        case aggregate(Aggregate, keyPath: ResolvedKeyPath?)
    }

    struct Column {
        let name: String
        let source: Source
        /// Converts computed values; nil keeps them as computed.
        let resultType: AttributeDescription?

        var isAggregate: Bool {
            if case .aggregate = source { return true }
            return false
        }

        /// Whether the column is a key path named after itself, so that sorting by its
        /// name sorts by the key path (else by the computed value).
        var isNamedKeyPath: Bool {
            if case .keyPath(let path) = source { return path.keyPath == name }
            return false
        }

        /// The value as the dictionary holds it, converted to `resultType` when exact.
        func finalValue(_ value: Any?) -> Any? {
            guard let value, let resultType else { return value }
            return resultType.canonicalValue(value)
        }
    }

    let columns: [Column]
    /// The key paths rows are grouped by.
    let groupBy: [ResolvedKeyPath]
    let isGrouped: Bool
    let having: CDPredicate?
    let distinct: Bool

    /// The order both stores sort the dictionaries in: `descriptors`, then — for grouped
    /// or distinct results, which have no single row to fall back on — the same keys by
    /// `.compare`, so that groups a selector finds equal ("a" and "A" under
    /// `.caseInsensitiveCompare`) still come out in the same order from SQL and memory.
    func ordering(_ descriptors: [CDSortDescriptor]) -> [CDSortDescriptor] {
        guard isGrouped || distinct else { return descriptors }
        return descriptors + descriptors.filter { $0.selector != .compare }.map { CDSortDescriptor(key: $0.key, ascending: $0.ascending) }
    }

    init<T>(_ request: FetchRequest<T>, entity: EntityDescription) throws {
        let requested = try request.propertiesToFetch.map { try $0.map { try Self.column(for: $0, in: entity) } }
        columns = requested ?? Self.defaultColumns(of: entity)
        groupBy = try (request.propertiesToGroupBy ?? []).map { try Self.groupKeyPath(for: $0, in: entity) }
        isGrouped = !groupBy.isEmpty || columns.contains(where: \.isAggregate)
        having = request.havingPredicate
        distinct = request.returnsDistinctResults
        guard !columns.isEmpty else {
            throw CoreDataError(.invalidFetchRequest, "propertiesToFetch is empty: name at least one property or expression.")
        }
        guard Set(columns.map(\.name)).count == columns.count else {
            throw CoreDataError(.invalidFetchRequest, "propertiesToFetch names the same key twice.")
        }
        if let having {
            guard !groupBy.isEmpty else { throw CoreDataError(.invalidFetchRequest, "A havingPredicate needs propertiesToGroupBy.") }
            try Self.checkKeys(of: having, columns: columns)
        }
        guard isGrouped else { return }
        for column in columns {
            switch column.source {
            case .aggregate: continue
            case .keyPath(let path) where groupBy.contains(where: { $0.keyPath == path.keyPath }): continue
            default:
                throw CoreDataError(.invalidFetchRequest, "'\(column.name)' in propertiesToFetch is neither in propertiesToGroupBy nor an aggregate expression; a grouped fetch can only return those.", key: column.name)
            }
        }
    }

    /// Every stored attribute and to-one relationship, in model order.
    private static func defaultColumns(of entity: EntityDescription) -> [Column] {
        let slots = entity.slots
        return slots.storedSlots.map { Column(name: slots.properties[$0].name, source: .keyPath(ResolvedKeyPath(slot: $0, of: entity)), resultType: nil) }
    }

    private static func column(for item: Any, in entity: EntityDescription) throws -> Column {
        switch item {
        case let path as String:
            return Column(name: path, source: .keyPath(try storedKeyPath(path, in: entity)), resultType: nil)
        case let description as ExpressionDescription:
            guard let expression = description.expression else {
                throw CoreDataError(.invalidFetchRequest, "The expression description '\(description.name)' has no expression.", key: description.name)
            }
            let resultType = description.expressionResultType == .undefined ? nil : AttributeDescription(name: description.name, type: description.expressionResultType)
            return Column(name: description.name, source: try source(of: expression, named: description.name, in: entity), resultType: resultType)
        case let property as PropertyDescription:
            return Column(name: property.name, source: .keyPath(try storedKeyPath(property.name, in: entity)), resultType: nil)
        default:
            throw CoreDataError(.invalidFetchRequest, "propertiesToFetch holds a \(type(of: item)); use property names, key paths, PropertyDescriptions or ExpressionDescriptions.")
        }
    }

    private static func source(of expression: CDExpression, named name: String, in entity: EntityDescription) throws -> Source {
        switch expression.kind {
        case .keyPath(let path):
            return .keyPath(try storedKeyPath(path, in: entity))
        case .evaluatedObject:
            return .objectID
        case .function(let function, let arguments):
            guard let aggregate = Aggregate(rawValue: function), arguments.count == 1 else { break }
            switch arguments[0].kind {
            case .keyPath(let path):
                let resolved = try storedKeyPath(path, in: entity)
                if aggregate != .count, resolved.property is RelationshipDescription {
                    throw CoreDataError(.invalidFetchRequest, "The expression '\(expression.format)' of '\(name)' aggregates the relationship '\(path)'; only count: can.", key: name)
                }
                return .aggregate(aggregate, keyPath: resolved)
            case .evaluatedObject where aggregate == .count:
                return .aggregate(.count, keyPath: nil)
            default:
                break
            }
        default:
            break
        }
        throw CoreDataError(.invalidFetchRequest, "The expression '\(expression.format)' of '\(name)' cannot be fetched: use a key path, SELF, or one of \(Aggregate.allCases.map(\.rawValue).joined(separator: ", ")) over a key path.", key: name)
    }

    private static func groupKeyPath(for item: Any, in entity: EntityDescription) throws -> ResolvedKeyPath {
        let path: String
        switch item {
        case let text as String: path = text
        case let description as ExpressionDescription:
            guard case .keyPath(let keyPath)? = description.expression?.kind else {
                throw CoreDataError(.invalidFetchRequest, "propertiesToGroupBy can hold key-path expressions only, not '\(description.name)'.", key: description.name)
            }
            path = keyPath
        case let property as PropertyDescription: path = property.name
        default:
            throw CoreDataError(.invalidFetchRequest, "propertiesToGroupBy holds a \(type(of: item)); use property names, key paths or PropertyDescriptions.")
        }
        return try storedKeyPath(path, in: entity)
    }

    /// `path` resolved, when it ends at a stored property through to-one relationships.
    static func storedKeyPath(_ path: String, in entity: EntityDescription) throws -> ResolvedKeyPath {
        let resolved = try ResolvedKeyPath(path, from: entity)
        try resolved.requireToOne(in: .dictionaryFetch)
        if case .attribute(let attribute, _) = resolved.steps.last, attribute.isTransient {
            throw CoreDataError.transientKeyNotStored(attribute, of: attribute.entity ?? entity, keyPath: path)
        }
        return resolved
    }
}
