import Hummingbird

/// Puts the same protective headers on every response: a Content-Security-Policy that
/// allows scripts, styles and images from this server only (no inline script), no
/// MIME sniffing, no framing, and no referrer beyond this origin.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }
}
