import BugsKit
import EditingSession
import Foundation

/// The tracker's addresses in one place: pages link with these, and forms come back to
/// them.
enum BugsPaths {
    /// `/projects?tab=T`, or with a search, `/projects?q=TEXT&tab=T`.
    static func projects(searching text: String? = nil, tab: String) -> String {
        var components = URLComponents()
        components.path = "/projects"
        components.queryItems = (text.map { [URLQueryItem(name: "q", value: $0)] } ?? []) + [URLQueryItem(name: "tab", value: tab)]
        return components.string ?? "/projects?tab=\(tab)"
    }

    /// The project list's event stream: `/projects/events`, or for a search,
    /// `/projects/search/TEXT/events` with the text percent-encoded (the page's script
    /// adds its own query, so the search text goes in the path).
    static func projectsEvents(searching text: String?) -> String {
        guard let text else { return "/projects/events" }
        return "/projects/search/\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")/events"
    }

    /// `/projects/12?tab=T`: a project's page.
    static func project(_ reference: Reference<Project>, tab: String) -> String {
        "/projects/\(reference)?tab=\(tab)"
    }

    /// `/projects/12/events`: a project's bugs' event stream.
    static func projectEvents(_ reference: Reference<Project>) -> String {
        "/projects/\(reference)/events"
    }

    /// `/bugs/7/screenshot?tab=T`: a bug's screenshot.
    static func screenshot(_ reference: Reference<Bug>, tab: String) -> String {
        "/bugs/\(reference)/screenshot?tab=\(tab)"
    }
}
