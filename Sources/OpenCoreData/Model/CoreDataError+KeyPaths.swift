import Foundation

/// The errors of key paths that do not resolve against the model, or are used where they
/// cannot be: one wording and one code per failure, shared by `ResolvedKeyPath`, the
/// fetch checks, both stores and the evaluator. Each names the key path in `key`.
extension CoreDataError {
    /// Where a key path is used, for `toManyKeyNotAllowed(_:in:)`.
    enum KeyPathPlace {
        /// In a predicate: a comparison or expression (its format, when known).
        case predicate(String?)
        /// In a sort descriptor.
        case sortDescriptor
        /// Among a dictionary fetch's properties to fetch or group by.
        case dictionaryFetch
    }

    /// More keys than `ResolvedKeyPath.maximumKeys` (`.invalidPredicate`).
    static func keyPathTooLong(_ keyPath: String, keyCount: Int) -> CoreDataError {
        CoreDataError(
            .invalidPredicate,
            "The key path '\(keyPath.prefix(40))…' has \(keyCount) keys; at most \(ResolvedKeyPath.maximumKeys) are allowed (SQLite joins at most 64 tables).",
            key: keyPath
        )
    }

    /// `entity` has no property `name`. `.invalidFetchRequest` for a request, or
    /// `.invalidPredicate` when a predicate is evaluated against an object.
    static func unknownProperty(_ name: String, of entity: EntityDescription, keyPath: String, code: Code = .invalidFetchRequest, objectID: ManagedObjectID? = nil) -> CoreDataError {
        CoreDataError(code, "Key path '\(keyPath)': entity '\(entity.name)' has no property '\(name)'.", objectID: objectID, key: keyPath)
    }

    /// A key after something that has no keys: an attribute in the middle of a path, or
    /// what follows `@count` (`.invalidFetchRequest`, or `.invalidPredicate` while evaluating).
    static func keyAfterValue(_ name: String, follows value: String, keyPath: String, code: Code = .invalidFetchRequest) -> CoreDataError {
        CoreDataError(code, "Key path '\(keyPath)': '\(name)' follows \(value), a value that has no keys.", key: keyPath)
    }

    /// Core Data's "to-many key not allowed here" (`.invalidFetchRequest`). `keyPath` is
    /// nil when only the expression is known.
    static func toManyKeyNotAllowed(_ keyPath: String?, in place: KeyPathPlace) -> CoreDataError {
        let key = keyPath.map { " '\($0)'" } ?? ""
        switch place {
        case .predicate(let format):
            let subject = format.map { "\($0): the" } ?? "The"
            return CoreDataError(.invalidFetchRequest, "\(subject) to-many key\(key) is not allowed here; use ANY, ALL, NONE, IN, CONTAINS, a collection operator or SUBQUERY.", key: keyPath)
        case .sortDescriptor:
            return CoreDataError(.invalidFetchRequest, "The to-many key\(key) is not allowed here: a fetch cannot sort by a to-many relationship.", key: keyPath)
        case .dictionaryFetch:
            return CoreDataError(.invalidFetchRequest, "The to-many key\(key) is not allowed here: a dictionary fetch can fetch or group by attributes and to-one relationships only.", key: keyPath)
        }
    }

    /// A collection operator where only plain keys can be (`.invalidFetchRequest`).
    static func collectionOperatorNotAllowed(_ op: CollectionOperator, keyPath: String, in place: KeyPathPlace) -> CoreDataError {
        let location = switch place {
        case .predicate: "here"
        case .sortDescriptor: "in a sort descriptor"
        case .dictionaryFetch: "in a dictionary fetch's properties to fetch or group by"
        }
        return CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': the collection operator \(op.rawValue) is not allowed \(location).", key: keyPath)
    }

    /// An `@`-key that names no collection operator (`.invalidPredicate`).
    static func unknownCollectionOperator(_ name: String, keyPath: String) -> CoreDataError {
        CoreDataError(.invalidPredicate, "Key path '\(keyPath)': unknown collection operator \(name).", key: keyPath)
    }

    /// A collection operator after something that is not a collection (`.invalidPredicate`).
    static func collectionOperatorNeedsCollection(_ op: String, keyPath: String, found: String) -> CoreDataError {
        CoreDataError(.invalidPredicate, "Key path '\(keyPath)': the collection operator \(op) applies to collections, not to \(found).", key: keyPath)
    }

    /// A transient attribute in a path a store must read (`.invalidFetchRequest`).
    static func transientKeyNotStored(_ property: PropertyDescription, of entity: EntityDescription, keyPath: String) -> CoreDataError {
        CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(entity.name).\(property.name)' is transient, so a store cannot fetch, sort or filter by it.", key: keyPath)
    }

    /// A prefetching key path with a step that is not a relationship (`.invalidFetchRequest`).
    static func notARelationship(_ name: String, of entity: EntityDescription, keyPath: String) -> CoreDataError {
        CoreDataError(.invalidFetchRequest, "Key path '\(keyPath)': '\(name)' is not a relationship of \(entity.name), so objects cannot be prefetched along it.", key: keyPath)
    }
}
