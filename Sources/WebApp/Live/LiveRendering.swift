import OpenCoreData

/// How a page shows a live list's objects: what the live feed renders on the context's
/// queue when its controller reports a change.
struct LiveRendering<Object: ManagedObject> {
    /// A row's element id; nil while the object has no permanent ID (inserted, not
    /// saved yet), since a page addresses saved objects only.
    let rowID: (Object) -> String?
    /// A row's HTML.
    let rowHTML: (Object) throws -> String
    /// A section's HTML with no rows in it, for a sectioned list.
    let sectionHTML: (String) throws -> String
    /// The whole list's HTML, for a reset.
    let listHTML: (FetchedResultsController<Object>) throws -> String
}

extension LiveRendering {
    /// A list without sections: its HTML is its saved objects' rows, in order.
    static func flat(rowID: @escaping (Object) -> String?, rowHTML: @escaping (Object) throws -> String) -> LiveRendering {
        LiveRendering(
            rowID: rowID,
            rowHTML: rowHTML,
            sectionHTML: { _ in "" },
            listHTML: { controller in try (controller.fetchedObjects ?? []).filter { rowID($0) != nil }.map(rowHTML).joined() }
        )
    }
}
