import Foundation
import OpenCoreData

/// The live list of a project's bugs, newest first (by `created`, descending; bugs filed
/// at the same instant by title): a fetched results controller over `Bug`, one section.
///
/// Use it on its context's queue; give it a delegate to follow changes, and turn its
/// bugs into rows with `BugRow(_:session:)`.
public final class BugListController: FetchedResultsController<Bug> {
    /// The project whose bugs are listed.
    public let project: Project

    /// A controller for `project`'s bugs, in the project's context. Call `performFetch()`.
    ///
    /// - Throws: `CoreDataError` when `project` has no context (deleted, or never inserted).
    public init(project: Project) throws {
        guard let context = project.managedObjectContext else {
            throw CoreDataError(.objectNotFound, "The project has no context: it was deleted.")
        }
        let request = FetchRequest<Bug>(entityName: "Bug")
        request.predicate = try CDPredicate(format: "project == %@", project)
        request.sortDescriptors = [
            CDSortDescriptor(key: "created", ascending: false),
            CDSortDescriptor(key: "title", selector: .localizedStandardCompare),
        ]
        self.project = project
        super.init(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
    }
}
