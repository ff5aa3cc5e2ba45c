import Hummingbird

/// Finds the browser session a request's `ocd_session` cookie names. A page request
/// without one (a first visit, or a session forgotten since) gets a new session and its
/// cookie — `HttpOnly` (no script reads it) and `SameSite=Strict` (no other site's
/// request carries it). Other requests without a session go on without one, and their
/// routes refuse them.
struct SessionMiddleware: RouterMiddleware {
    static let cookieName = "ocd_session"
    let sessions: BrowserSessions

    func handle(_ request: Request, context: WebRequestContext, next: (Request, WebRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        context.browser = sessions.session(request.cookies[Self.cookieName]?.value)
        if context.browser == nil, request.method == .get, !request.uri.path.hasPrefix("/static/") {
            context.browser = sessions.makeSession()
            context.isNewSession = true
        }
        var response = try await next(request, context)
        if context.isNewSession, let browser = context.browser {
            response.setCookie(Cookie(name: Self.cookieName, value: browser.id, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }
}
