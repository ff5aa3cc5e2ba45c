import BugsKit

/// A section of `/projects` as a template shows it: the projects of one host (or a
/// search's results), under a heading, with its index title's anchor.
struct ProjectSectionView: Sendable, Equatable {
    /// The section's name, for `data-name`: the host, or "" for projects without one.
    let name: String
    /// The heading: the host, “No website” for projects without one, “Search results”.
    let heading: String
    /// The section index's title (`G`, `#`), or nil while searching.
    let indexTitle: String?
    /// The element id the index links to, `section-github.com` (`section-` alone for
    /// the projects without a host).
    let anchor: String
    let rows: [ProjectRowView]

    init(_ section: ProjectSection, tab: String, isSearching: Bool) {
        name = section.name
        heading = isSearching ? "Search results" : section.name.isEmpty ? "No website" : section.name
        indexTitle = section.indexTitle
        anchor = Self.anchor(forSectionNamed: section.name)
        rows = section.projects.map { ProjectRowView($0, tab: tab, allowsEditing: !isSearching) }
    }

    /// The element id of the section named `name`: a host has no spaces, so the id is
    /// one token.
    static func anchor(forSectionNamed name: String) -> String { "section-\(name)" }
}
