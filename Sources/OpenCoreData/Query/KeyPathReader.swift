import Foundation

/// Reads `.`-separated to-one key paths from objects the way predicates and sort
/// descriptors see them: `KeyValueCoding` objects and `[String: Any]` dictionaries.
package enum KeyPathReader {
    /// The value at `keyPath` of `object`; `nil` when any step on the way is `nil`.
    ///
    /// Throws `.invalidPredicate` when a step reaches a value that has no keys (a number, a
    /// string…), and for the parts of the language not supported yet: collection operators
    /// (`@count`) and to-many paths through arrays or sets.
    package static func value(of object: Any?, keyPath: String) throws -> Any? {
        var current = CDValue.flattenOptional(object)
        var start = keyPath.startIndex
        while true {
            let end = keyPath[start...].firstIndex(of: ".") ?? keyPath.endIndex
            let key = String(keyPath[start..<end])
            guard current != nil else { return nil }
            current = try value(of: current, key: key, keyPath: keyPath)
            guard end < keyPath.endIndex else { return current }
            start = keyPath.index(after: end)
        }
    }

    /// The value for one key of `object`.
    package static func value(of object: Any?, key: String, keyPath: String? = nil) throws -> Any? {
        guard let object = CDValue.flattenOptional(object) else { return nil }
        if key.hasPrefix("@") {
            throw CoreDataError(
                .invalidPredicate,
                "The collection operator '\(key)' in key path '\(keyPath ?? key)' is not supported yet",
                key: keyPath ?? key
            )
        }
        if key == "self" { return object }
        switch object {
        case let kvc as any KeyValueCoding:
            return CDValue.flattenOptional(kvc.value(forKey: key))
        case let dictionary as [String: Any]:
            return CDValue.flattenOptional(dictionary[key])
        case is [Any], is Set<AnyHashable>, is NSSet:
            throw CoreDataError(
                .invalidPredicate,
                "The key path '\(keyPath ?? key)' goes through a to-many collection at '\(key)'; this is not supported yet",
                key: keyPath ?? key
            )
        default:
            throw CoreDataError(
                .invalidPredicate,
                "Cannot read key '\(key)' of a value of type \(type(of: object)) (key path '\(keyPath ?? key)')",
                key: keyPath ?? key
            )
        }
    }
}
