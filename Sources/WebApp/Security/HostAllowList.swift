import Hummingbird

/// Refuses a request whose `Host` is not one of this server's own names, so that a web
/// page on another site cannot reach it through a DNS name that resolves to 127.0.0.1
/// (DNS rebinding).
struct HostAllowList<Context: RequestContext>: RouterMiddleware {
    /// The accepted `Host` values, lowercased, each with its port.
    let hosts: Set<String>

    /// `localhost`, `127.0.0.1` and `[::1]` on `port`, and `host` itself when it is another name.
    init(host: String, port: Int) {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let bound = host.lowercased()
        if !["0.0.0.0", "::", "[::]"].contains(bound) {
            names.insert(bound.contains(":") && !bound.hasPrefix("[") ? "[\(bound)]" : bound)
        }
        hosts = Set(names.map { "\($0):\(port)" })
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, hosts.contains(host.lowercased()) else {
            return Response(
                status: .misdirectedRequest,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "This server does not answer to that host name.\n"))
            )
        }
        return try await next(request, context)
    }
}
