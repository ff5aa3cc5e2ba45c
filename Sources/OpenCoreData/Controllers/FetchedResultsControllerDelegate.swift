import Foundation

/// The kind of change a fetched results controller reports for an object or a section.
public enum FetchedResultsChangeType: Int, Sendable, CustomStringConvertible {
    case insert = 1
    case delete = 2
    case move = 3
    case update = 4

    public var description: String {
        switch self {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        }
    }
}

/// How a controller reports a batch of changes to its delegate. Core Data picks the form
/// by asking which optional methods the delegate implements; Swift cannot ask, so the
/// delegate says it with `FetchedResultsControllerDelegate.changeReporting`.
public enum FetchedResultsChangeReporting: Sendable {
    /// `controllerWillChangeContent`, one callback per section and object change, then
    /// `controllerDidChangeContent` (the default).
    case perChange
    /// One `controller(_:didChangeContentWith:)` call with a
    /// `CollectionDifference<ManagedObjectID>` of `fetchedObjects`' IDs (Core Data offers
    /// it without a section key path; here, with one, it describes all sections' objects
    /// in order). Costs as much as the changes, not as the results.
    case difference
    /// One `controller(_:didChangeContentWithSnapshot:)` call with the whole sectioned
    /// content as a `FetchedResultsSnapshot` (costs as much as the results).
    case snapshot
}

/// Receives a fetched results controller's changes, once per event of its context
/// (`processPendingChanges()`, which saves and fetches call). Held weakly.
///
/// Every method has an empty default. The batch of one event follows Core Data's
/// table-view contract: section changes come before object changes; deletes carry old
/// index paths, inserts new ones, moves both, updates the old one — apply them as
/// `UITableView.performBatchUpdates` does (deletes against the old state, inserts against
/// the new) and the result equals a fresh fetch.
///
/// The controller methods are generic over the controller's result type: implement them
/// as written here (`func controller<ResultType>(…)`), or the default is called instead.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// Which form of change reports this delegate receives (default `.perChange`).
    var changeReporting: FetchedResultsChangeReporting { get }

    /// A batch of per-change callbacks begins.
    func controllerWillChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>)
    /// An object was inserted, deleted, moved or updated.
    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted or deleted.
    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// A batch of per-change callbacks ended.
    func controllerDidChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>)
    /// With `.difference`: how the fetched objects' IDs changed in one event.
    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWith difference: CollectionDifference<ManagedObjectID>)
    /// With `.snapshot`: the content after one event.
    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWithSnapshot snapshot: FetchedResultsSnapshot)
    /// The index title of a section (nil: the controller's `sectionIndexTitle(forSectionName:)`).
    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, sectionIndexTitleForSectionName sectionName: String) -> String?
}

extension FetchedResultsControllerDelegate {
    public var changeReporting: FetchedResultsChangeReporting { .perChange }
    public func controllerWillChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) {}
    public func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {}
    public func controllerDidChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) {}
    public func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {}
    public func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWithSnapshot snapshot: FetchedResultsSnapshot) {}
    public func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, sectionIndexTitleForSectionName sectionName: String) -> String? { nil }
}
