import Foundation
import Hummingbird

extension WebApp {
    /// The session and tab of a page request: the tab `?tab=` names, or a new one.
    func pageTab(_ request: Request, _ context: WebRequestContext) async throws -> (BrowserSession, Tab) {
        guard let browser = context.browser else { throw WebError.forbidden("Your session has expired: reload the page.") }
        let tab = try await self.tab(request.uri.queryParameters["tab"].map(String.init), of: browser)
        return (browser, tab)
    }

    /// The session, tab and fields of a form: refused unless it comes from this site and
    /// carries the session's CSRF token.
    func formTab(_ request: Request, _ context: WebRequestContext, form: Form) async throws -> (BrowserSession, Tab) {
        guard let browser = context.browser else { throw WebError.forbidden("Your session has expired: reload the page and try again.") }
        try RequestOrigin.check(request)
        guard CSRFToken.matches(form["csrf"], browser.csrfToken) else {
            throw WebError.forbidden("The form's security token is missing or out of date: reload the page and try again.")
        }
        return (browser, try await tab(form["tab"], of: browser))
    }

    /// The session and tab of an event stream: `EventSource` cannot send headers, so the
    /// CSRF token comes in the query.
    func streamTab(_ request: Request, _ context: WebRequestContext) async throws -> (BrowserSession, Tab) {
        guard let browser = context.browser else { throw WebError.forbidden("Your session has expired: reload the page.") }
        try RequestOrigin.check(request)
        guard CSRFToken.matches(request.uri.queryParameters["csrf"].map(String.init), browser.csrfToken) else {
            throw WebError.forbidden("The stream's security token is missing or out of date: reload the page.")
        }
        return (browser, try await tab(request.uri.queryParameters["tab"].map(String.init), of: browser))
    }

    private func tab(_ id: String?, of browser: BrowserSession) async throws -> Tab {
        let store = store, author = author
        return try await offload { try browser.tab(id, store: store, author: author) }
    }

    /// A page's header values for `tab` at `place`.
    func chrome(title: String, app: String, place: PagePlace, browser: BrowserSession, tab: Tab) -> PageChrome {
        let undo = tab.undoState
        return PageChrome(
            title: title, app: app, tab: tab.id, csrf: browser.csrfToken,
            back: place.back, undo: undo.undo, redo: undo.redo, message: place.message
        )
    }

    /// The request's path and query, with `tab` set to `tab`'s id.
    static func path(of request: Request, tab: Tab) -> String {
        var items = URLComponents(string: request.uri.description)?.queryItems ?? []
        items.removeAll { $0.name == "tab" }
        items.append(URLQueryItem(name: "tab", value: tab.id))
        var components = URLComponents()
        components.path = request.uri.path
        components.queryItems = items
        return components.string ?? "\(request.uri.path)?tab=\(tab.id)"
    }
}
