import Foundation

/// A fetched results controller's content as values: each section's name with its
/// objects' IDs, in order. `Sendable`, so it can go to another thread; for UIs that
/// rebuild or diff on their own (Core Data's `NSDiffableDataSourceSnapshot` form,
/// which Linux does not have). A controller without a section key path has one
/// section named "".
public struct FetchedResultsSnapshot: Sendable, Equatable {
    /// One section: its name and its objects' IDs in order.
    public struct Section: Sendable, Equatable {
        public var name: String
        public var objectIDs: [ManagedObjectID]

        public init(name: String, objectIDs: [ManagedObjectID]) {
            self.name = name
            self.objectIDs = objectIDs
        }
    }

    public var sections: [Section]

    public init(sections: [Section]) {
        self.sections = sections
    }

    /// Every object ID, section by section.
    public var objectIDs: [ManagedObjectID] { sections.flatMap(\.objectIDs) }
}
