import Foundation

/// Reading values by key, the way predicates and sort descriptors see an object.
///
/// `ManagedObject` conforms; so can any type a predicate should evaluate against.
/// Dictionaries (`[String: Any]`) are read directly by the evaluator.
public protocol KeyValueCoding {
    /// The value for a property name, or `nil`.
    func value(forKey key: String) -> Any?
}
