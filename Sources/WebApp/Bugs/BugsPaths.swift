import BugsKit
import EditingSession

/// The tracker's addresses, in one place: pages and forms link with these, and the
/// routes are registered under the same patterns.
enum BugsPaths {
    /// `/projects`: the project list.
    static let projects = "/projects"
    /// `POST /projects/add`.
    static let addProject = "/projects/add"

    /// `/projects/12?tab=T`: a project's page.
    static func project(_ reference: Reference<Project>, tab: String) -> String {
        "/projects/\(reference)?tab=\(tab)"
    }

    /// `/bugs/7/screenshot?tab=T`: a bug's screenshot.
    static func screenshot(_ reference: Reference<Bug>, tab: String) -> String {
        "/bugs/\(reference)/screenshot?tab=\(tab)"
    }
}
