import EditingSession
import OpenCoreData

extension NestedList {
    /// The batch size of `controller(for:)`'s fetch: about two screens of rows.
    public static let defaultBatchSize = 50

    /// A fetched results controller for `list`'s rows — its children sorted by `order` —
    /// on the session's context, not fetched yet: what a live page of the list observes.
    ///
    /// The fetch reads `batchSize` objects at a time as the rows are read, so opening a
    /// list of thousands of items reads one page. Reordering by moving a row reports a
    /// `.move` of that row (and moves or updates of the rows it passed), never a delete
    /// and an insert. Use the controller, its objects and its delegate's callbacks inside
    /// `session.read` (its context's queue); turn an object into a value with `row(for:)`.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown or deleted reference.
    public func controller(for list: Reference<Item>, batchSize: Int = defaultBatchSize) throws -> FetchedResultsController<Item> {
        try session.read { context in
            let request = try Item.childrenRequest(of: try session.object(list))
            request.fetchBatchSize = max(0, batchSize)
            return FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        }
    }
}
