import Foundation
@testable import OpenCoreData

extension ManagedObject {
    /// An object outside any context with a given ID, for comparison tests.
    static func detached(entity: EntityDescription, objectID: ManagedObjectID) -> ManagedObject {
        let object = ManagedObject(entity: entity, insertInto: nil)
        object.objectID = objectID
        return object
    }
}
