import Foundation

/// One section of a fetched results controller (Core Data's `NSFetchedResultsSectionInfo`):
/// the objects that share one value of the section key path, in order.
public struct FetchedResultsSectionInfo<ResultType: ManagedObject> {
    /// The section's name: the section key path's value as a string ("" for nil, and for
    /// the one section of a controller without a section key path).
    public let name: String
    /// The title of the section in a section index (see
    /// `FetchedResultsController.sectionIndexTitle(forSectionName:)`).
    public let indexTitle: String?
    /// The section's objects, in order (sharing the controller's storage).
    public let objectsSlice: ArraySlice<ResultType>

    /// How many objects the section has.
    public var numberOfObjects: Int { objectsSlice.count }
    /// The section's objects, in order.
    public var objects: [ResultType] { Array(objectsSlice) }
}
