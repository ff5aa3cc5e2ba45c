import Mustache

/// One section of `/projects` (`Templates/projects-section.mustache`): the projects of
/// one host, or a search's results, under a heading. Its `data-section` is its name, which
/// is how the live feed's section and row operations find it.
struct ProjectSectionValues: Sendable {
    /// The section's name: the host, or "" for projects without one (and for a search).
    let name: String
    /// The heading: the host, “No website”, or “Search results”.
    let heading: String
    /// The section index's title (`G`, `#`), or nil while searching.
    let indexTitle: String?
    /// The element id the section index links to.
    let anchor: String
    /// The rows' HTML, rendered by `project-row`.
    let rows: String

    init(name: String, indexTitle: String?, isSearching: Bool, rows: String) {
        self.name = name
        heading = isSearching ? "Search results" : name.isEmpty ? "No website" : name
        self.indexTitle = indexTitle
        anchor = Self.anchor(forSectionNamed: name)
        self.rows = rows
    }

    /// The element id of the section named `name`, `section-github.com` (a host has no
    /// spaces, so the id is one token; `section-` for the projects without a host).
    static func anchor(forSectionNamed name: String) -> String { "section-\(name)" }
}

extension ProjectSectionValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "heading": self.heading
        case "indexTitle": self.indexTitle
        case "anchor": self.anchor
        case "rows": self.rows
        default: nil
        }
    }
}
