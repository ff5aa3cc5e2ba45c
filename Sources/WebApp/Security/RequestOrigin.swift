import Hummingbird

/// Where a state-changing request (a form, the event stream) came from, as the browser
/// says: `Origin` must name this server and `Sec-Fetch-Site` must be `same-origin` (or
/// `none`, typed by the user) whenever the browser sends them. A page on another site
/// cannot forge either; a non-browser client sends neither and still needs the token.
enum RequestOrigin {
    /// Throws `WebError.forbidden` when the request says it comes from another site.
    static func check(_ request: Request) throws(WebError) {
        if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" {
            throw .forbidden("This request came from another site, so it was refused.")
        }
        if let origin = request.headers[.origin] {
            guard let authority = request.head.authority,
                  origin.lowercased() == "http://\(authority.lowercased())" || origin.lowercased() == "https://\(authority.lowercased())"
            else { throw .forbidden("This request came from another site, so it was refused.") }
        }
    }
}
