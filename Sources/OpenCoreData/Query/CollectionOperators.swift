import Foundation

/// The key-path collection operators: `@count`, `@sum`, `@avg`, `@min`, `@max`,
/// `@distinctUnionOfObjects`, `@unionOfObjects` (and `@unionOfArrays`,
/// `@distinctUnionOfArrays`, `@distinctUnionOfSets`, which flattening makes the same).
///
/// As in Foundation, an operator applies to the collection on its left and the rest of
/// the path (`items.@sum.price`: `price`) is read from each element. `@count` also counts
/// a dictionary's entries, and what follows it is read from the count itself, so a key or
/// another operator after it (`items.@count.@count`) is an error; the others read the
/// elements themselves when no path follows (`{1, 2}.@sum`). `nil` values are ignored. An operator applied to
/// a value that is not a collection (`title.@count`) is an error, as in Foundation.
package enum CollectionOperators {
    /// The operator `name` (with its `@`) applied to `base`, reading `rest` from each element.
    ///
    /// - Throws: `.invalidPredicate` for an unknown operator, a base that is not a
    ///   collection, or values an operator cannot combine (`@sum` of strings).
    package static func apply(_ name: String, to base: Any, rest: ArraySlice<String>, keyPath: String) throws -> Any? {
        let op = try CollectionOperator(named: name, keyPath: keyPath)
        // What follows `@count` is read from the count, a number: a key or another operator
        // there is an error (`children.@count.@count`), as in Foundation.
        if op == .count, let dictionary = base as? [String: Any] {
            return try KeyPathReader.value(of: Int64(dictionary.count), steps: rest, keyPath: keyPath)
        }
        guard let collection = EvaluatedCollection(base) else {
            throw CoreDataError.collectionOperatorNeedsCollection(name, keyPath: keyPath, found: "a value of type \(type(of: base))")
        }
        if op == .count { return try KeyPathReader.value(of: Int64(collection.nonNilElements.count), steps: rest, keyPath: keyPath) }
        let values = rest.isEmpty
            ? EvaluatedCollection(collection.nonNilElements, isOrdered: collection.isOrdered)
            : try KeyPathReader.flatMap(collection) { try KeyPathReader.value(of: $0, steps: rest, keyPath: keyPath) }
        switch op {
        case .count: return Int64(values.nonNilElements.count)
        case .sum: return try AggregateFunctions.sum(values.nonNilElements, in: "\(name) in key path '\(keyPath)'")
        case .average: return try AggregateFunctions.average(values.nonNilElements, in: "\(name) in key path '\(keyPath)'")
        case .minimum: return try AggregateFunctions.minimum(values.nonNilElements)
        case .maximum: return try AggregateFunctions.maximum(values.nonNilElements)
        case .unionOfObjects, .unionOfArrays: return values
        case .distinctUnionOfObjects, .distinctUnionOfArrays, .distinctUnionOfSets: return distinct(values)
        }
    }

    /// `collection` without repeated elements (equal by `ValueComparison`), first ones kept.
    package static func distinct(_ collection: EvaluatedCollection) -> EvaluatedCollection {
        var kept: [Any?] = []
        var seen = Set<CDValue>()
        for element in collection.elements {
            // Numbers hash by value only after normalising; everything else by its CDValue.
            if let key = CDValue(converting: element).map(hashKey) {
                if seen.insert(key).inserted { kept.append(element) }
            } else if !kept.contains(where: { ValueComparison.isEqual($0, element) }) {
                kept.append(element)
            }
        }
        return EvaluatedCollection(kept, isOrdered: collection.isOrdered)
    }

    /// A `CDValue` whose structural equality is `ValueComparison`'s equality: numbers that
    /// are equal in value map to one representation.
    private static func hashKey(_ value: CDValue) -> CDValue {
        guard let number = NumericValue(value) else {
            if case .array(let items) = value { return .array(items.map(hashKey)) }
            return value
        }
        if let integer = number.exactInteger { return .int64(integer) }
        if case .decimal(let decimal) = number { return .double(NSDecimalNumber(decimal: decimal).doubleValue) }
        return .double(number.doubleValue)
    }
}
