import BugsKit
import EditingSession
import Foundation
import Hummingbird
import OpenCoreData

/// The project list: `/projects` (sectioned by host, or `?q=` search results), its event
/// stream, and the forms that add, edit and delete projects.
struct ProjectsRoutes {
    let app: WebApp

    func register(on router: Router<WebRequestContext>) {
        router.get("/projects") { request, context -> Response in
            let (browser, tab) = try await app.pageTab(request, context)
            let place = try PagePlace(request, tab: tab)
            return try await listPage(place, searching: place.query["q"], browser: browser, tab: tab)
        }
        router.get("/projects/events") { request, context -> Response in
            let (browser, tab) = try await app.streamTab(request, context)
            return try await events(searching: nil, request: request, browser: browser, tab: tab)
        }
        router.get("/projects/search/{text}/events") { request, context -> Response in
            let (browser, tab) = try await app.streamTab(request, context)
            let text = context.parameters.get("text")?.removingPercentEncoding
            return try await events(searching: text, request: request, browser: browser, tab: tab)
        }
        router.post("/projects/add") { request, context in
            try await app.act(request, context, fallback: "/projects") { editor, form in
                _ = try editor.tracker.addProject(name: form["name"] ?? "", url: form["url"])
            }
        }
        router.post("/projects/{project}/edit") { request, context in
            let project: Reference<Project> = try context.reference("project")
            return try await app.act(request, context, fallback: "/projects") { editor, form in
                _ = try editor.tracker.editProject(project, name: form["name"] ?? "", url: form["url"])
            }
        }
        router.post("/projects/{project}/delete") { request, context in
            let project: Reference<Project> = try context.reference("project")
            return try await app.act(request, context, fallback: "/projects") { editor, _ in
                try editor.tracker.deleteProject(project)
            }
        }
    }

    /// The project list `place` names, or nil when it is not `/projects`.
    func page(_ place: PagePlace, browser: BrowserSession, tab: Tab) async throws -> Response? {
        guard place.path == "/projects" else { return nil }
        return try await listPage(place, searching: place.query["q"], browser: browser, tab: tab)
    }

    /// `/projects`: every project by host, or the projects whose name or URL contains
    /// `text` (when it is not blank), in one section and without edit forms.
    func listPage(_ place: PagePlace, searching text: String?, browser: BrowserSession, tab: Tab) async throws -> Response {
        let list = try await offload { try tab.tracker.projectList(searchText: text) }
        let chrome = app.chrome(title: "Projects", app: "bugs", place: place, browser: browser, tab: tab)
        let form = try app.pages.form(chrome)
        let rendering = ProjectsRendering(pages: app.pages, form: form, isSearching: list.isSearching)
        var seen: Set<String> = []
        let index = list.sections.compactMap { section -> ProjectsPageValues.IndexEntry? in
            guard let title = section.indexTitle, seen.insert(title).inserted else { return nil }
            return .init(title: title, anchor: ProjectSectionValues.anchor(forSectionNamed: section.name))
        }
        let values = ProjectsPageValues(
            chrome: chrome, form: form, searchText: list.searchText ?? "", isSearching: list.isSearching,
            index: index, hasIndex: !index.isEmpty, live: BugsPaths.projectsEvents(searching: list.searchText),
            sections: try rendering.sections(ProjectsRendering.Section.sections(of: list)), isEmpty: list.projects.isEmpty
        )
        return try app.pages.page("projects", values, status: place.status)
    }

    /// The project list's event stream: its controller on the tab's context, sections
    /// and rows as live changes (a project of a new host inserts its section first).
    func events(searching text: String?, request: Request, browser: BrowserSession, tab: Tab) async throws -> Response {
        let pages = app.pages
        let form = try pages.form(tab: tab.id, csrf: browser.csrfToken, back: BugsPaths.projects(searching: text, tab: tab.id))
        return try await EventStream.response(to: request) { continuation in
            try Self.startFeed(searching: text, pages: pages, form: form, tab: tab, continuation: continuation)
        }
    }

    /// Starts the live feed of the project list (or of the search for `text`) on `tab`'s
    /// context: it sends the whole list, then every change, to `continuation`. Returns
    /// what stops it. Blocks on the context's queue: call it off the cooperative pool.
    static func startFeed(
        searching text: String?, pages: Pages, form: FormValues, tab: Tab,
        continuation: AsyncStream<ServerSentEvent>.Continuation
    ) throws -> @Sendable () -> Void {
        let controller = try tab.tracker.makeProjectListController(searchText: text)
        let rendering = ProjectsRendering(pages: pages, form: form, isSearching: controller.isSearching)
        let live = LiveRendering<Project>(
            rowID: { project in tab.session.reference(to: project).map { "project-\($0)" } },
            rowHTML: { project in try rendering.row(ProjectRow(project, session: tab.session)) },
            sectionHTML: { name in
                try rendering.section(.init(name: name, indexTitle: controller.sectionIndexTitle(forSectionName: name), rows: []))
            },
            listHTML: { _ in try rendering.sections(ProjectsRendering.Section.sections(of: controller, session: tab.session)) }
        )
        return try LiveFeed.start(controller, rendering: live, tab: tab, continuation: continuation)
    }
}
