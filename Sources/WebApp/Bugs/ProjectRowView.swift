import BugsKit

/// A project as a template shows it: a row of `/projects`, and the heading of its own page.
///
/// Every value is plain text for Mustache's `{{ }}`, which escapes it in text and in
/// attributes; the URL is one `BugTracker.validatedURL(_:)` accepted (`http`, `https` or
/// `mailto`), so it is safe as a link's `href`.
struct ProjectRowView: Sendable, Equatable {
    /// The element id, `project-12`.
    let id: String
    /// The reference, `12`.
    let reference: String
    let name: String
    /// The project's URL, or nil.
    let url: String?
    /// The URL's host, or nil.
    let host: String?
    /// How many bugs, in words: `1 bug`, `3 bugs`.
    let bugCount: String
    /// The project's page, with the tab.
    let href: String
    /// Whether the row shows its edit and delete forms (not in search results).
    let allowsEditing: Bool

    init(_ row: ProjectRow, tab: String, allowsEditing: Bool = true) {
        id = "project-\(row.reference)"
        reference = row.reference.description
        name = row.name
        url = row.url
        host = row.host
        bugCount = row.bugCount == 1 ? "1 bug" : "\(row.bugCount) bugs"
        href = BugsPaths.project(row.reference, tab: tab)
        self.allowsEditing = allowsEditing
    }
}
