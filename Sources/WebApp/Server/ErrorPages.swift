import Hummingbird
import Logging
import Mustache

/// Turns an error a route threw into a page a person can read: the status and one
/// sentence, no SQL, paths or stack traces (a server fault's details go to the log).
/// A script's request (`Accept: application/json`) gets `{"ok":false,"message":…}`.
struct ErrorPages: RouterMiddleware {
    let pages: Pages
    let logger: Logger

    func handle(_ request: Request, context: WebRequestContext, next: (Request, WebRequestContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return respond(to: request, WebError(status: error.status, message: error.status == .notFound ? "There is no such page." : error.status.reasonPhrase))
        } catch {
            let problem = WebError(error)
            if problem.isServerFault { logger.error("\(request.method) \(request.uri.path) failed: \(error)") }
            return respond(to: request, problem)
        }
    }

    func respond(to request: Request, _ problem: WebError) -> Response {
        if ActionResponse.wantsJSON(request) { return ActionResponse.json(ok: false, message: problem.message, undo: nil, status: problem.status) }
        let html = (try? pages.render("error", ErrorValues(status: problem.status.code, reason: problem.status.reasonPhrase, message: problem.message)))
            ?? "<!doctype html><title>Error</title><p>\(problem.status.code)</p>"
        return Pages.html(html, status: problem.status)
    }
}

/// The error page's values.
struct ErrorValues {
    let status: Int
    let reason: String
    let message: String
}

extension ErrorValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "status": self.status
        case "reason": self.reason
        case "message": self.message
        default: nil
        }
    }
}
