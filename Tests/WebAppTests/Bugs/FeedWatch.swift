import Foundation
import Synchronization
import Testing
@testable import WebApp

/// A live feed started as a page's event stream starts it, and the events it has sent so
/// far: what a browser's `EventSource` would receive, without the HTTP in between.
final class FeedWatch: Sendable {
    private let received = Mutex<[ServerSentEvent]>([])
    private let stopFeed: @Sendable () -> Void

    /// Starts a feed with `start`, which is given the stream's continuation (a route's
    /// `startFeed`), off the cooperative pool as the routes call it.
    init(_ start: @escaping @Sendable (AsyncStream<ServerSentEvent>.Continuation) throws -> @Sendable () -> Void) async throws {
        let (events, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
        stopFeed = try await offload { try start(continuation) }
        Task { [received] in
            for await event in events { received.withLock { $0.append(event) } }
        }
    }

    func stop() { stopFeed() }

    /// The `index`th event (from 0), waiting up to 5 s for it.
    func event(_ index: Int) async throws -> ServerSentEvent {
        for _ in 0 ..< 500 {
            if let event = received.withLock({ $0.count > index ? $0[index] : nil }) { return event }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw WatchError.noEvent(index, received: received.withLock { $0.map(\.name) })
    }

    /// How many events have arrived.
    var count: Int { received.withLock { $0.count } }

    enum WatchError: Error { case noEvent(Int, received: [String]) }

    /// A `change` event's operations.
    struct Change: Decodable {
        struct Op: Decodable, Equatable {
            let op: String
            let id: String?
            let section: String?
            let before: String?
            let html: String?
        }
        let ops: [Op]
        let undo: String?
    }

    /// A `reset` event's HTML.
    struct Reset: Decodable {
        let html: String
    }

    /// The `index`th event, which must be a change.
    func change(_ index: Int) async throws -> Change {
        let event = try await event(index)
        #expect(event.name == "change")
        return try JSONDecoder().decode(Change.self, from: Data(event.data.utf8))
    }

    /// The `index`th event, which must be a reset.
    func reset(_ index: Int) async throws -> Reset {
        let event = try await event(index)
        #expect(event.name == "reset")
        return try JSONDecoder().decode(Reset.self, from: Data(event.data.utf8))
    }
}
