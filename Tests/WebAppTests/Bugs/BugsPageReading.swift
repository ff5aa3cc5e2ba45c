import BugsKit
import DemoStore
import EditingSession
import Foundation
import Testing

/// What the tracker's pages show, read from their HTML the way a person reads the page.
enum BugsPageReading {
    /// The sections of `/projects`: each one's `data-section` name and its projects' names.
    static func sections(_ html: String) -> [(name: String, projects: [String])] {
        html.components(separatedBy: "<section class=\"section\"").dropFirst().map { section in
            (TestBrowser.attribute("data-section", in: section) ?? "?", texts(of: "data-field=\"name\">", in: section))
        }
    }

    /// The reference of the project named `name` on `/projects`.
    static func projectReference(_ name: String, in html: String) throws -> String {
        let row = try #require(html.components(separatedBy: "<li class=\"row\"").first { $0.contains("data-field=\"name\">\(name)<") })
        return try #require(TestBrowser.attribute("data-ref", in: row))
    }

    /// The reference of the bug titled `title` on a project's page.
    static func bugReference(_ title: String, in html: String) throws -> String {
        let row = try #require(html.components(separatedBy: "<li class=\"row bug\"").first { $0.contains("data-field=\"title\">\(title)<") })
        return try #require(TestBrowser.attribute("data-ref", in: row))
    }

    /// The text of the page's `#message`, or nil when it is hidden.
    static func message(_ html: String) -> String? {
        guard let start = html.range(of: "<p id=\"message\" role=\"alert\">") else { return nil }
        return html[start.upperBound...].components(separatedBy: "</p>").first
    }

    /// The texts that follow each `marker`, up to the next tag.
    static func texts(of marker: String, in html: String) -> [String] {
        html.components(separatedBy: marker).dropFirst().compactMap { $0.components(separatedBy: "<").first }
    }
}

extension TestBrowser {
    /// `path` in this browser's tab: `/projects?q=x` → `/projects?q=x&tab=T`.
    func inTab(_ path: String) -> String {
        "\(path)\(path.contains("?") ? "&" : "?")tab=\(tab ?? "")"
    }
}

extension DemoStore {
    /// A tracker on a new context of the store: what was saved, read afresh.
    func freshTracker() -> BugTracker {
        BugTracker(session: EditingSession(context: newContext()))
    }

    /// The projects saved in the store, by name, with their bugs' titles, newest first.
    func saved() throws -> [String: [String]] {
        let tracker = freshTracker()
        var saved: [String: [String]] = [:]
        for project in try tracker.projectList().projects {
            saved[project.name] = try tracker.bugs(of: project.reference).map(\.title)
        }
        return saved
    }
}
