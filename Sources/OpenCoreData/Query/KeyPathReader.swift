import Foundation

/// Reads `.`-separated key paths from objects the way predicates and sort descriptors see
/// them: `KeyValueCoding` objects (managed objects included) and `[String: Any]`
/// dictionaries, through to-one and to-many steps and collection operators.
///
/// - A step on `nil` gives `nil`.
/// - A step on a collection (a to-many relationship, an array or set) reads the key of
///   every element and gives the collection of the results, flattened when those are
///   collections themselves and without `nil`s: `children.children.title` is every
///   grandchild's title. The result is ordered when every collection on the way was.
/// - A step starting with `@` is a collection operator (see `CollectionOperators`): it
///   applies to the collection so far and consumes the rest of the path.
/// - `self` is the value itself.
/// - A path has at most `ResolvedKeyPath.maximumKeys` keys, in memory as in the SQLite store.
///
/// Errors are `CoreDataError+KeyPaths`'s, with the code `.invalidPredicate` of evaluation.
package enum KeyPathReader {
    /// The value at `keyPath` of `object`.
    ///
    /// - Throws: `.invalidPredicate` when a step reads a key of a value that has none (a
    ///   number, a string…), when a managed object's entity has no such property, and for
    ///   misused collection operators.
    package static func value(of object: Any?, keyPath: String) throws -> Any? {
        // The common case, one plain key, without splitting the path.
        if !keyPath.utf8.contains(UInt8(ascii: ".")), !keyPath.hasPrefix("@") {
            return try value(of: object, key: keyPath, keyPath: keyPath)
        }
        let steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try ResolvedKeyPath.checkLength(steps.count, keyPath: keyPath)
        return try value(of: object, steps: steps[...], keyPath: keyPath)
    }

    /// The value at the path made of `steps` (part of `keyPath`, named in errors).
    package static func value(of object: Any?, steps: ArraySlice<String>, keyPath: String) throws -> Any? {
        var current = CDValue.flattenOptional(object)
        var position = steps.startIndex
        while position < steps.endIndex {
            guard let base = current else { return nil }
            let key = steps[position]
            position += 1
            if key.hasPrefix("@") {
                return try CollectionOperators.apply(key, to: base, rest: steps[position...], keyPath: keyPath)
            }
            current = try value(of: base, key: key, keyPath: keyPath)
        }
        return current
    }

    /// `key` read from every element of `collection`, flattened, without `nil`s.
    package static func values(of collection: EvaluatedCollection, key: String, keyPath: String) throws -> EvaluatedCollection {
        try flatMap(collection) { try value(of: $0, key: key, keyPath: keyPath) }
    }

    /// `transform` applied to every non-`nil` element; results that are collections are
    /// flattened into the result, `nil`s dropped.
    package static func flatMap(_ collection: EvaluatedCollection, _ transform: (Any) throws -> Any?) throws -> EvaluatedCollection {
        var result = EvaluatedCollection([], isOrdered: collection.isOrdered)
        for element in collection.nonNilElements {
            guard let value = CDValue.flattenOptional(try transform(element)) else { continue }
            if let nested = EvaluatedCollection(value) {
                result.elements += nested.nonNilElements.map { $0 }
                result.isOrdered = result.isOrdered && nested.isOrdered
            } else {
                result.elements.append(value)
            }
        }
        return result
    }

    /// The value for one key of `object`; for a collection, the flattened values of its
    /// elements.
    package static func value(of object: Any?, key: String, keyPath: String? = nil) throws -> Any? {
        guard let object = CDValue.flattenOptional(object) else { return nil }
        if key == "self" { return object }
        switch object {
        case let dictionary as [String: Any]:
            return CDValue.flattenOptional(dictionary[key])
        case let managed as ManagedObject:
            guard let slot = managed.slots?.slot(forKey: key) else {
                throw CoreDataError.unknownProperty(key, of: managed.entity, keyPath: keyPath ?? key, code: .invalidPredicate, objectID: managed.objectID)
            }
            return CDValue.flattenOptional(managed.value(atSlot: slot))
        case let kvc as any KeyValueCoding:
            return CDValue.flattenOptional(kvc.value(forKey: key))
        default:
            if let collection = EvaluatedCollection(object) {
                return try values(of: collection, key: key, keyPath: keyPath ?? key)
            }
            throw CoreDataError.keyAfterValue(key, follows: "a value of type \(type(of: object))", keyPath: keyPath ?? key, code: .invalidPredicate)
        }
    }
}
