import Foundation
import OpenCoreData

/// The live project list: a fetched results controller over `Project`, sectioned by host
/// with a section index, or — while searching — one section of the projects whose name or
/// URL contains the search text, case-insensitively (the seed's search, with
/// `name CONTAINS[c] %@ OR url CONTAINS[c] %@`).
///
/// Projects are sorted by host, then by name (Finder-like: case folded, numbers as
/// numbers). Projects without a host (no URL, or a `mailto:` URL) have a nil host, which
/// sorts first: they make the first section, named "" (Core Data's section name for nil),
/// whose index title is `#`.
///
/// While searching there is one section, no section index, and `allowsEditing` is false,
/// as in the seed's app: pages and command lines read the flag to hide edit controls.
/// Like any fetched results controller, use it on its context's queue; give it a delegate
/// to follow changes (`FetchedResultsControllerDelegate`), and turn its projects into
/// rows with `ProjectRow(_:)` there.
public final class ProjectListController: FetchedResultsController<Project> {
    /// The index title of the section of projects without a host.
    public static let noHostIndexTitle = "#"

    /// The search text, trimmed; nil when not searching.
    public let searchText: String?

    /// Whether the list is a search's results.
    public var isSearching: Bool { searchText != nil }

    /// Whether rows may be edited, deleted or added from this list: not while searching.
    public var allowsEditing: Bool { !isSearching }

    /// A controller for the projects of `context`, all of them sectioned by host or, with
    /// a non-empty `searchText`, the matching ones in one section. Call `performFetch()`.
    ///
    /// - Throws: `CoreDataError` only if the search predicate cannot be built (the text
    ///   is passed as an argument, never parsed as a format).
    public init(context: ManagedObjectContext, searchText: String? = nil) throws {
        let trimmed = searchText?.trimmingCharacters(in: .whitespacesAndNewlines)
        let search = trimmed?.isEmpty == false ? trimmed : nil
        let request = FetchRequest<Project>(entityName: "Project")
        request.sortDescriptors = [
            CDSortDescriptor(key: "host"),
            CDSortDescriptor(key: "name", selector: .localizedStandardCompare),
        ]
        if let search {
            request.predicate = try CDPredicate(format: "name CONTAINS[c] %@ OR url CONTAINS[c] %@", search, search)
        }
        self.searchText = search
        super.init(fetchRequest: request, managedObjectContext: context,
                   sectionNameKeyPath: search == nil ? "host" : nil, cacheName: nil)
    }

    /// A section's index title: the host's first letter, capitalized (`G` for
    /// `github.com`); `#` for projects without a host; none while searching.
    override public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        guard !isSearching else { return nil }
        return super.sectionIndexTitle(forSectionName: sectionName) ?? Self.noHostIndexTitle
    }
}
