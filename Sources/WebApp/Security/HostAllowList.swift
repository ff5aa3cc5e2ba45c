import Hummingbird

/// Refuses a request whose `Host` names anything but this server — `localhost`,
/// `127.0.0.1`, `[::1]`, or the address given with `--host` — so that a page of another
/// site cannot reach it through a DNS name of its own that resolves to 127.0.0.1 (DNS
/// rebinding). The name is what tells; the port may be any.
struct HostAllowList<Context: RequestContext>: RouterMiddleware {
    /// The accepted names, lowercased, IPv6 addresses in brackets.
    let names: Set<String>

    init(host: String) {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let bound = host.lowercased()
        if !["0.0.0.0", "::", "[::]"].contains(bound) {
            names.insert(bound.contains(":") && !bound.hasPrefix("[") ? "[\(bound)]" : bound)
        }
        self.names = names
    }

    /// The name part of a `Host` value: `[::1]:8080` → `[::1]`, `localhost:8080` → `localhost`.
    static func name(of host: String) -> String {
        let host = host.lowercased()
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? host
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, names.contains(Self.name(of: host)) else {
            return Response(
                status: .misdirectedRequest,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "This server does not answer to that host name.\n"))
            )
        }
        return try await next(request, context)
    }
}
