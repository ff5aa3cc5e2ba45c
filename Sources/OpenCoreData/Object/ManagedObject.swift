import Foundation

/// An object of the graph: an instance of an entity, living in a context.
open class ManagedObject: KeyValueCoding {
    /// The object's identity (temporary until saved).
    public internal(set) var objectID: ManagedObjectID
    /// The object's entity.
    public let entity: EntityDescription

    package init(entity: EntityDescription, objectID: ManagedObjectID) {
        self.entity = entity
        self.objectID = objectID
    }

    /// The value of an attribute or relationship.
    open func value(forKey key: String) -> Any? { nil }
}
