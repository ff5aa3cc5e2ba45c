import BugsKit
import EditingSession
import Foundation
import Hummingbird
import OpenCoreData

/// A project's page: `/projects/{ref}` (its bugs, newest first), its event stream, the
/// multipart forms that add and edit bugs (with a screenshot), the form that deletes one,
/// and `/bugs/{ref}/screenshot`, the image.
struct BugsRoutes {
    let app: WebApp

    /// The fields of the bug forms that are files.
    static let fileFields: Set<String> = ["screenshot"]

    func register(on router: Router<WebRequestContext>) {
        router.get("/projects/{project}") { request, context -> Response in
            let project: Reference<Project> = try context.reference("project")
            let (browser, tab) = try await app.pageTab(request, context)
            return try await page(of: project, try PagePlace(request, tab: tab), browser: browser, tab: tab)
        }
        router.get("/projects/{project}/events") { request, context -> Response in
            let project: Reference<Project> = try context.reference("project")
            let (browser, tab) = try await app.streamTab(request, context)
            return try await events(of: project, request: request, browser: browser, tab: tab)
        }
        router.post("/projects/{project}/bugs/add") { request, context in
            let project: Reference<Project> = try context.reference("project")
            return try await app.actOnUpload(request, context, fallback: "/projects/\(project)", fileFields: Self.fileFields) { editor, form in
                _ = try editor.tracker.addBug(to: project, title: form["title"] ?? "", details: form["details"], screenshot: form.files["screenshot"])
            }
        }
        router.post("/bugs/{bug}/edit") { request, context in
            let bug: Reference<Bug> = try context.reference("bug")
            return try await app.actOnUpload(request, context, fallback: "/projects", fileFields: Self.fileFields) { editor, form in
                let screenshot: BugTracker.ScreenshotChange =
                    if let data = form.files["screenshot"] { .replace(data) }
                    else if form["remove-screenshot"] != nil { .remove }
                    else { .keep }
                _ = try editor.tracker.editBug(bug, title: form["title"] ?? "", details: form["details"], screenshot: screenshot)
            }
        }
        router.post("/bugs/{bug}/delete") { request, context in
            let bug: Reference<Bug> = try context.reference("bug")
            return try await app.act(request, context, fallback: "/projects") { editor, _ in
                try editor.tracker.deleteBug(bug)
            }
        }
        router.get("/bugs/{bug}/screenshot") { request, context -> Response in
            let bug: Reference<Bug> = try context.reference("bug")
            let (_, tab) = try await app.pageTab(request, context)
            return try await screenshot(of: bug, tab: tab)
        }
    }

    /// The project page `place` names, or nil when it is not one.
    func page(_ place: PagePlace, browser: BrowserSession, tab: Tab) async throws -> Response? {
        let parts = place.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "projects", let project = Reference<Project>(String(parts[1])) else { return nil }
        return try await page(of: project, place, browser: browser, tab: tab)
    }

    /// `project`'s page: its name and link, the add-bug form, its bugs newest first, and
    /// their live stream.
    func page(of project: Reference<Project>, _ place: PagePlace, browser: BrowserSession, tab: Tab) async throws -> Response {
        let (row, bugs) = try await offload { (try tab.tracker.project(project), try tab.tracker.bugs(of: project)) }
        let chrome = app.chrome(title: row.name, app: "bugs", place: place, browser: browser, tab: tab)
        let form = try app.pages.form(chrome)
        let rows = try bugs.map { try app.pages.renderRow("bug-row", BugRowValues($0, form: form)) }.joined()
        let values = ProjectPageValues(
            chrome: chrome, form: form, project: ProjectRowValues(row, allowsEditing: true, form: form),
            live: BugsPaths.projectEvents(project), rows: rows, isEmpty: bugs.isEmpty
        )
        return try app.pages.page("project", values, status: place.status)
    }

    /// `project`'s bugs' event stream: its bug list controller on the tab's context.
    func events(of project: Reference<Project>, request: Request, browser: BrowserSession, tab: Tab) async throws -> Response {
        let pages = app.pages
        let form = try pages.form(tab: tab.id, csrf: browser.csrfToken, back: BugsPaths.project(project, tab: tab.id))
        return try await EventStream.response(to: request) { continuation in
            try Self.startFeed(of: project, pages: pages, form: form, tab: tab, continuation: continuation)
        }
    }

    /// Starts the live feed of `project`'s bugs on `tab`'s context: it sends the whole
    /// list, then every change, to `continuation`. Returns what stops it. Blocks on the
    /// context's queue: call it off the cooperative pool.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown project.
    static func startFeed(
        of project: Reference<Project>, pages: Pages, form: FormValues, tab: Tab,
        continuation: AsyncStream<ServerSentEvent>.Continuation
    ) throws -> @Sendable () -> Void {
        let controller = try tab.tracker.makeBugListController(for: project)
        let rowHTML = { (bug: Bug) throws -> String in
            try pages.renderRow("bug-row", BugRowValues(BugRow(bug, session: tab.session), form: form))
        }
        let live = LiveRendering<Bug>.flat(rowID: { bug in tab.session.reference(to: bug).map { "bug-\($0)" } }, rowHTML: rowHTML)
        return try LiveFeed.start(controller, rendering: live, tab: tab, continuation: continuation)
    }

    /// A bug's screenshot, served with its fixed type (`image/png` or `image/jpeg`, from
    /// its checked bytes) and `nosniff`; 404 when the bug has none.
    func screenshot(of bug: Reference<Bug>, tab: Tab) async throws -> Response {
        guard let image = try await offload({ try tab.tracker.screenshot(of: bug) }) else {
            throw WebError.notFound("This bug has no screenshot.")
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: image.mimeType, .xContentTypeOptions: "nosniff",
                .contentDisposition: "inline", .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: image.data))
        )
    }
}
