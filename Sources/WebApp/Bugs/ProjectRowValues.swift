import BugsKit
import Mustache

/// One row of `/projects` (`Templates/project-row.mustache`), and the heading of the
/// project's own page.
///
/// Every value is plain text for Mustache's `{{ }}`, which escapes it in text and in
/// attributes; the URL is one `BugTracker.validatedURL(_:)` accepted (`http`, `https` or
/// `mailto`, never `javascript:`), so it is safe as a link's `href`.
struct ProjectRowValues: Hashable, Sendable {
    /// The reference, `12`: the row is `#project-12`.
    let ref: String
    let name: String
    /// The project's URL, or nil.
    let url: String?
    /// How many bugs, in words: `1 bug`, `3 bugs`.
    let bugCount: String
    /// The project's page, in the tab.
    let href: String
    /// Whether the row shows its edit and delete forms: not in search results.
    let allowsEditing: Bool
    let form: FormValues

    init(_ row: ProjectRow, allowsEditing: Bool, form: FormValues) {
        ref = row.reference.description
        name = row.name
        url = row.url
        bugCount = row.bugCount == 1 ? "1 bug" : "\(row.bugCount) bugs"
        href = BugsPaths.project(row.reference, tab: form.tab)
        self.allowsEditing = allowsEditing
        self.form = form
    }
}

extension ProjectRowValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "ref": self.ref
        case "name": self.name
        case "url": self.url
        case "bugCount": self.bugCount
        case "href": self.href
        case "allowsEditing": self.allowsEditing
        case "form": self.form
        default: nil
        }
    }
}
