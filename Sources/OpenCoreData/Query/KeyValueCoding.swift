import Foundation

/// Reading values by key, the way predicates and sort descriptors see an object.
///
/// `ManagedObject` conforms; so can any type a predicate should evaluate against.
/// Dictionaries (`[String: Any]`) are read directly by the evaluator.
public protocol KeyValueCoding {
    /// The value for a property name, or `nil`.
    func value(forKey key: String) -> Any?
}

/// An object that compares as its `ManagedObjectID` in predicates and sorts: a managed
/// object, or a stored row the in-memory store evaluates.
package protocol IdentifiedObject {
    var objectID: ManagedObjectID { get }
}

extension ManagedObject: IdentifiedObject {}
