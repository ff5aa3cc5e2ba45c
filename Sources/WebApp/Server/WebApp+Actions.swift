import Foundation
import Hummingbird

extension WebApp {
    /// Runs a form's action on its tab's editor (refused unless the form is this site's,
    /// with the session's token) and answers: a 303 back to the page, or JSON for the page's script.
    /// When the action fails — bad input, an unknown item, a conflict, a busy store —
    /// nothing was changed, and the page comes back with the message and a 4xx (or 503).
    ///
    /// `form` is a form already read (a multipart upload); by default the body is read as
    /// a URL-encoded form within `configuration.maxFormSize`.
    func act(
        _ request: Request, _ context: WebRequestContext, fallback: String, form: Form? = nil,
        _ action: @escaping @Sendable (Tab.Editor, Form) throws -> Void
    ) async throws -> Response {
        let form = if let form { form } else { try await Form.read(request, limit: configuration.maxFormSize) }
        let (browser, tab) = try await formTab(request, context, form: form)
        let back = ActionResponse.safePath(form["back"]) ?? fallback
        do {
            try await offload {
                defer { tab.noteUndoState() }
                try action(tab.editor, form)
            }
            return ActionResponse.done(request, back: back, fallback: fallback, tab: tab)
        } catch {
            let problem = WebError(error)
            if problem.isServerFault { logger.error("\(request.method) \(request.uri.path) failed: \(error)") }
            if ActionResponse.wantsJSON(request) {
                return ActionResponse.json(ok: false, message: problem.message, undo: tab.undoState, status: problem.status)
            }
            return try await page(at: back, request: request, browser: browser, tab: tab, message: problem.message, status: problem.status)
        }
    }

    /// The page at `back` (a path this server made, with its query), showing `message`:
    /// how a refused form comes back without JavaScript.
    func page(at back: String, request: Request, browser: BrowserSession, tab: Tab, message: String?, status: HTTPResponse.Status) async throws -> Response {
        let components = URLComponents(string: back)
        let path = components?.path ?? "/"
        let query = (try? Form.parse(ByteBuffer(string: components?.percentEncodedQuery ?? "")).fields) ?? [:]
        let place = PagePlace(path: path, query: query, back: back, message: message, status: status)
        if let response = try await ListsRoutes(app: self).page(place, browser: browser, tab: tab) { return response }
        if let response = try await ProjectsRoutes(app: self).page(place, browser: browser, tab: tab) { return response }
        if let response = try await BugsRoutes(app: self).page(place, browser: browser, tab: tab) { return response }
        return try HomeRoutes(app: self).page(place, browser: browser, tab: tab)
    }
}

/// Which page to show and how: its path and query, the path forms send the browser back
/// to, a message for the user and the status.
struct PagePlace: Sendable {
    let path: String
    let query: [String: String]
    let back: String
    var message: String?
    var status: HTTPResponse.Status

    /// The page a GET request asks for, in `tab`. The query is read as a form's fields
    /// (a GET form encodes a space as `+`).
    init(_ request: Request, tab: Tab) throws(WebError) {
        path = request.uri.path
        query = try Form.parse(ByteBuffer(string: request.uri.query ?? "")).fields
        back = WebApp.path(of: request, tab: tab)
        message = nil
        status = .ok
    }

    init(path: String, query: [String: String], back: String, message: String?, status: HTTPResponse.Status) {
        self.path = path
        self.query = query
        self.back = back
        self.message = message
        self.status = status
    }
}
