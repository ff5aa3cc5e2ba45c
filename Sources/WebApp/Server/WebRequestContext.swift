import Hummingbird

/// A request's context: Hummingbird's core storage plus the browser session the session
/// middleware found (or made) for it.
public struct WebRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's browser session; set by `SessionMiddleware` before any route runs.
    var browser: BrowserSession?
    /// Set when the middleware made the session for this request: its cookie goes out
    /// with the response.
    var isNewSession = false

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
