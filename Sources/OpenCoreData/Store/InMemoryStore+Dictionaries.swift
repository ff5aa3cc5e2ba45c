import Foundation

/// Dictionary fetches in Swift, with the semantics `DictionaryFetch` describes (the same
/// as the SQLite store's SQL).
extension InMemoryStore {
    func fetchDictionaries(_ query: StoreFetch) throws -> [[String: Any]] {
        guard let dictionary = query.dictionary else { return [] }
        executedStatementCount += 1
        var unwindowed = query
        unwindowed.limit = 0
        unwindowed.offset = 0
        unwindowed.sortDescriptors = []
        let rows = try matchingRows(unwindowed)
        let groups = dictionary.isGrouped || dictionary.distinct ? try group(rows, dictionary) : rows.map { [$0] }
        var results: [(dictionary: [String: Any], row: StoredRow?)] = try groups.map { members in
            var result: [String: Any] = [:]
            for column in dictionary.columns {
                if let value = column.finalValue(try value(of: column, over: members)) { result[column.name] = value }
            }
            return (result, members.first)
        }
        if let having = dictionary.having {
            results = try results.filter { try having.evaluateThrowing(with: $0.dictionary) }
        }
        if !query.sortDescriptors.isEmpty {
            let names = Set(dictionary.columns.filter { !$0.isNamedKeyPath }.map(\.name))
            let sorted = CDSortDescriptor.sort(results.map { GroupSortProxy(dictionary: $0.dictionary, row: $0.row, names: names) }, by: dictionary.ordering(query.sortDescriptors))
            results = sorted.map { ($0.dictionary, $0.row) }
        }
        return query.windowed(results.map(\.dictionary))
    }

    /// Rows grouped by the group-by key paths (all columns, for DISTINCT), in order of
    /// first appearance. Aggregates without grouping make one group, even of no rows.
    private func group(_ rows: [StoredRow], _ dictionary: DictionaryFetch) throws -> [[StoredRow]] {
        if dictionary.isGrouped && dictionary.groupBy.isEmpty { return [rows] }
        var groups: [[StoredRow]] = []
        var positions: [[CDValue]: Int] = [:]
        for row in rows {
            let key = dictionary.isGrouped
                ? dictionary.groupBy.map { CDValue(converting: storedValue(of: row, keyPath: $0)) ?? .null }
                : try dictionary.columns.map { CDValue(converting: try value(of: $0, over: [row])) ?? .null }
            if let position = positions[key] {
                groups[position].append(row)
            } else {
                positions[key] = groups.count
                groups.append([row])
            }
        }
        return groups
    }

    /// A column's value for a group of rows (one row, for plain columns).
    private func value(of column: DictionaryFetch.Column, over rows: [StoredRow]) throws -> Any? {
        switch column.source {
        case .objectID:
            return rows.first?.id
        case .keyPath(let path):
            return rows.first.flatMap { storedValue(of: $0, keyPath: path) }
        case .aggregate(let aggregate, let path):
            guard let path else { return Int64(rows.count) }
            let values = rows.compactMap { storedValue(of: $0, keyPath: path) }
            return try Self.aggregate(aggregate, values, keyPath: path.keyPath)
        }
    }

    private static func aggregate(_ aggregate: DictionaryFetch.Aggregate, _ values: [Any], keyPath: String) throws -> Any? {
        switch aggregate {
        case .count:
            return Int64(values.count)
        case .min, .max:
            let wanted: ComparisonResult = aggregate == .min ? .orderedAscending : .orderedDescending
            return values.dropFirst().reduce(values.first) { best, value in
                ValueComparison.order(value, best) == wanted ? value : best
            }
        case .sum, .average:
            guard !values.isEmpty else { return nil }
            let integers = values.compactMap(StoredNumber.integer)
            if aggregate == .sum, integers.count == values.count { return try AggregateFunctions.integerSum(integers, in: "sum: of '\(keyPath)'") }
            let total = values.reduce(0.0) { $0 + (StoredNumber.double($1) ?? 0) }
            return aggregate == .sum ? total : total / Double(values.count)
        }
    }

    /// The stored value at the end of a to-one key path: attributes as stored, to-one
    /// relationships as object IDs. (The steps' slots hold in the rows' sub-entities too:
    /// inherited properties come first.)
    private func storedValue(of row: StoredRow, keyPath: ResolvedKeyPath) -> Any? {
        var snapshot = row.snapshot
        for (position, step) in keyPath.steps.enumerated() {
            switch step {
            case .attribute(_, let slot):
                return snapshot.values[slot].any
            case .toOne(_, let slot):
                guard let next = snapshot.values[slot].objectID else { return nil }
                guard position < keyPath.steps.count - 1 else { return next }
                guard let nextRow = rows[next] else { return nil }
                snapshot = nextRow
            case .toMany, .collectionOperator:
                return nil
            }
        }
        return nil
    }
}

/// A result dictionary as sort descriptors see it: computed columns by name, key paths
/// through the group's first row (so "parent.title" sorts as in SQL).
private struct GroupSortProxy: KeyValueCoding {
    let dictionary: [String: Any]
    let row: StoredRow?
    let names: Set<String>

    func value(forKey key: String) -> Any? {
        if names.contains(key) { return dictionary[key] }
        return row?.value(forKey: key)
    }
}
