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
        Task { [weak self] in
            for await event in events { self?.received.withLock { $0.append(event) } }
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
    }

    /// A `reset` event's HTML.
    struct Reset: Decodable {
        let html: String
    }

    /// The first change event after `index` with an operation on row `id` (events before
    /// it — a row redrawn as a merge catches up — are passed over), and its index.
    func change(after index: Int, touching id: String) async throws -> (Change, index: Int) {
        var next = index + 1
        while true {
            let event = try await event(next)
            if event.name == "change" {
                let change = try JSONDecoder().decode(Change.self, from: Data(event.data.utf8))
                if change.ops.contains(where: { $0.id == id }) { return (change, next) }
            }
            next += 1
        }
    }

    /// Every change event received so far.
    func changes() throws -> [Change] {
        try received.withLock { $0 }.filter { $0.name == "change" }.map { try JSONDecoder().decode(Change.self, from: Data($0.data.utf8)) }
    }

    /// The `index`th event, which must be a reset.
    func reset(_ index: Int) async throws -> Reset {
        let event = try await event(index)
        #expect(event.name == "reset")
        return try JSONDecoder().decode(Reset.self, from: Data(event.data.utf8))
    }
}
