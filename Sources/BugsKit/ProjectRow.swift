import EditingSession
import Foundation
import OpenCoreData

/// A project as a plain value, to hand out of the context's queue (to a page, a command
/// line, JSON).
public struct ProjectRow: Sendable, Hashable, Codable, Identifiable {
    /// The project's reference, for URLs and command lines.
    public let reference: Reference<Project>
    /// The project's name.
    public let name: String
    /// The project's URL, or nil.
    public let url: String?
    /// The URL's host, lowercased, or nil: the project's section in the list.
    public let host: String?
    /// How many bugs the project has.
    public let bugCount: Int

    public var id: Reference<Project> { reference }

    /// The row of a saved project. Call it on the context's queue.
    ///
    /// - Throws: `EditingSessionError.notFound` for a project not saved yet (it has no
    ///   reference; a fetched results controller reports an insert during the save, before
    ///   the permanent ID: make rows once the save is done).
    public init(_ project: Project, session: EditingSession) throws {
        reference = try session.savedReference(to: project)
        name = project.name
        url = project.url
        host = project.host
        bugCount = project.bugs.count
    }
}

/// A section of the project list: the projects of one host (or, while searching, all
/// the matches).
public struct ProjectSection: Sendable, Hashable, Codable {
    /// The section's name: the host, or "" for projects without a host (and while
    /// searching).
    public let name: String
    /// The section's index title (`G` for `github.com`, `#` for no host), or nil while
    /// searching.
    public let indexTitle: String?
    /// The section's projects, by name.
    public let projects: [ProjectRow]
}

/// The project list as values: its sections, its section index, and whether it is a
/// search (when it is, there is one section and editing is disabled).
public struct ProjectList: Sendable, Hashable, Codable {
    /// The sections, in order.
    public let sections: [ProjectSection]
    /// The titles of the section index, without repeats; empty while searching.
    public let sectionIndexTitles: [String]
    /// The search text, trimmed; nil when not searching.
    public let searchText: String?
    /// Whether this is a search's results.
    public var isSearching: Bool { searchText != nil }
    /// Whether rows may be added, edited or deleted from this list: not while searching.
    public var allowsEditing: Bool { !isSearching }
    /// Every project of the list, in order.
    public var projects: [ProjectRow] { sections.flatMap(\.projects) }

    /// The list `controller` shows now. Call it on the context's queue.
    public init(_ controller: ProjectListController, session: EditingSession) throws {
        sections = try (controller.sections ?? []).map { section in
            try ProjectSection(name: section.name, indexTitle: section.indexTitle,
                               projects: section.objects.map { try ProjectRow($0, session: session) })
        }
        sectionIndexTitles = controller.sectionIndexTitles
        searchText = controller.searchText
    }
}
