import Hummingbird
import ServiceLifecycle

/// A `text/event-stream` response that sends what a live feed yields until the browser
/// goes away or the server shuts down.
enum EventStream {
    /// Starts a feed with `start` (given the stream's continuation, on which it yields its
    /// `reset` event first; run off the cooperative pool, since it waits for a context's
    /// queue) and returns the streaming response; the closure `start` returns runs when
    /// the stream ends.
    static func response(
        to request: Request,
        start: @escaping @Sendable (AsyncStream<ServerSentEvent>.Continuation) throws -> @Sendable () -> Void
    ) async throws -> Response {
        let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
        let stop = try await offload { try start(continuation) }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                defer { stop() }
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                try await withGracefulShutdownHandler {
                    try await request.body.consumeWithInboundCloseHandler { _ in
                        for await event in events {
                            try await writer.write(ByteBuffer(string: event.text))
                        }
                    } onInboundClosed: {
                        continuation.finish()
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
                try await writer.finish(nil)
            }
        )
    }
}
