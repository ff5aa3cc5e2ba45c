import Dispatch
import Foundation
import ListsKit
import OpenCoreData
import Testing
@testable import WebApp

/// A live feed lets go of its controller, and the managed objects it holds, on its
/// context's queue: released anywhere else, an object leaves the context's identity map
/// while the queue may be using it (the load test crashed so when streams closed during
/// merges).
@Suite struct LiveFeedReleaseTests {
    /// Holds a reference weakly.
    final class Weak<Object: AnyObject>: @unchecked Sendable {
        // @unchecked Sendable: only read after the queue it changes on has been drained.
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    @Test func aStoppedFeedLetsGoOfItsControllerOnTheQueueNotInTheCaller() async throws {
        let harness = try await WebAppHarness()
        let browser = harness.app.sessions.makeSession()
        let tab = try browser.tab(nil, store: harness.store, author: harness.app.author)
        try await offload { _ = try tab.editor.lists.add("Milk", to: tab.editor.lists.root) }
        let (_, continuation) = AsyncStream.makeStream(of: ServerSentEvent.self)
        let (stop, controller) = try await offload { () throws -> (@Sendable () -> Void, Weak<FetchedResultsController<Item>>) in
            let rendering = LiveRendering<Item>.flat(rowID: { _ in "row" }, rowHTML: { $0.title })
            let controller = try tab.lists.controller(for: tab.lists.root)
            return (try LiveFeed.start(controller, rendering: rendering, tab: tab, continuation: continuation), Weak(controller))
        }
        let context = tab.session.context
        #expect(controller.object != nil, "the running feed holds its controller")

        let (afterStop, afterDrain) = Self.stopWhileBusy(context, stop: stop, controller: controller)
        #expect(afterStop, "the caller of stop did not let go of the controller itself")
        #expect(!afterDrain, "the queue let go of it, though the stop closure is still held")
        _ = stop
    }

    /// Calls `stop` while `context`'s queue is busy; whether `controller` was alive right
    /// after, and once the queue had run what was queued.
    static func stopWhileBusy(_ context: ManagedObjectContext, stop: @Sendable () -> Void, controller: Weak<FetchedResultsController<Item>>) -> (Bool, Bool) {
        let busy = DispatchSemaphore(value: 0)
        context.perform { busy.wait() }
        stop()
        let afterStop = controller.object != nil
        busy.signal()
        context.performAndWait {}
        return (afterStop, controller.object != nil)
    }
}
