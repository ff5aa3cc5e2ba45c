import DemoStore
import EditingSession
import Foundation
import ListsKit
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import WebApp

/// A page's live feed: its list's fetched results controller, on the tab's context, turned
/// into DOM operations — for the tab's own actions, another tab's, and another process's.
@Suite struct LiveFeedTests {
    /// A feed of the root list of `tab`, started as its page's event stream starts it.
    static func watch(_ harness: WebAppHarness, tab: Tab) async throws -> FeedWatch {
        let pages = harness.app.pages
        let form = try pages.form(tab: tab.id, csrf: "token", back: "/lists")
        return try await FeedWatch { continuation in
            try ListsRoutes.startFeed(of: tab.lists.root, pages: pages, form: form, tab: tab, continuation: continuation)
        }
    }

    /// The operations of a `change` event.
    static func change(_ event: ServerSentEvent) throws -> FeedWatch.Change {
        #expect(event.name == "change")
        return try JSONDecoder().decode(FeedWatch.Change.self, from: Data(event.data.utf8))
    }

    @Test func theTabsOwnActionsAndAnotherTabsArriveAsOperations() async throws {
        let harness = try await WebAppHarness()
        let browser = harness.app.sessions.makeSession()
        let tab = try browser.tab(nil, store: harness.store, author: harness.app.author)
        let other = try browser.tab(nil, store: harness.store, author: harness.app.author)
        let watch = try await Self.watch(harness, tab: tab)
        #expect(try await watch.event(0).name == "reset")

        let milk = try tab.editor.lists.add("Milk", to: tab.lists.root)
        var change = try Self.change(try await watch.event(1))
        #expect(change.ops.map(\.op) == ["insert"])
        #expect(change.ops.first?.id == "item-\(milk.reference)")
        #expect(change.ops.first?.html?.contains(">Milk</a>") == true)

        // Another tab's save is merged into this tab's context as it happens.
        let bread = try other.editor.lists.add("Bread", to: other.lists.root)
        change = try Self.change(try await watch.event(2))
        #expect(change.ops.map(\.op) == ["insert"])
        #expect(change.ops.first?.id == "item-\(bread.reference)")

        try other.editor.lists.move(bread.reference, toIndex: 0)
        change = try Self.change(try await watch.event(3))
        let move = try #require(change.ops.first { $0.op == "move" })
        #expect(move.id == "item-\(bread.reference)" && move.before == "item-\(milk.reference)")

        try tab.editor.lists.rename(milk.reference, to: "Oat milk")
        change = try Self.change(try await watch.event(4))
        #expect(change.ops.map(\.op) == ["update"])
        #expect(change.ops.first?.html?.contains(">Oat milk</a>") == true)

        try other.editor.lists.delete(bread.reference)
        change = try Self.change(try await watch.event(5))
        #expect(change.ops.map(\.op) == ["delete", "move"], "the milk moves up to the bread's place")
        #expect(change.ops.first?.id == "item-\(bread.reference)")
        watch.stop()
    }

    @Test func anotherProcessesSaveArrivesThroughTheHistory() async throws {
        let harness = try await WebAppHarness()
        let browser = harness.app.sessions.makeSession()
        let tab = try browser.tab(nil, store: harness.store, author: harness.app.author)
        let watch = try await Self.watch(harness, tab: tab)
        #expect(try await watch.event(0).name == "reset")
        // Another coordinator on the file stands for another process (the CLI).
        let elsewhere = try DemoStore.open(at: harness.store.url)
        let lists = try NestedList(session: EditingSession(context: elsewhere.newContext()))
        let added = try lists.add("From the command line", to: lists.root)
        let change = try Self.change(try await watch.event(1))
        #expect(change.ops.map(\.op) == ["insert"])
        #expect(change.ops.first?.id == "item-\(added.reference)")
        watch.stop()
    }

    @Test func theEventStreamStartsWithTheWholeList() async throws {
        let harness = try await WebAppHarness()
        try await harness.live { port in
            let host = "Host: 127.0.0.1:\(port)\r\n"
            let first = try await RawHTTP.exchange(port: port, request: "GET /lists HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
            let cookie = try #require(first.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }?.dropFirst(11).split(separator: ";").first)
            let tab = try #require(TestBrowser.attribute("data-tab", in: first))
            let csrf = try #require(TestBrowser.attribute("data-csrf", in: first))
            let body = "title=Milk&tab=\(tab)&csrf=\(csrf)"
            let added = try await RawHTTP.exchange(port: port, request: "POST /lists/1/add HTTP/1.1\r\n\(host)Cookie:\(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            #expect(added.hasPrefix("HTTP/1.1 303"), "\(added.prefix(60))")
            let stream = try await RawHTTP.exchange(
                port: port,
                request: "GET /lists/1/events?tab=\(tab)&csrf=\(csrf) HTTP/1.1\r\n\(host)Cookie:\(cookie)\r\nAccept: text/event-stream\r\n\r\n",
                until: "Milk"
            )
            #expect(stream.hasPrefix("HTTP/1.1 200"))
            #expect(stream.lowercased().contains("content-type: text/event-stream"))
            #expect(stream.contains("event: reset\ndata: {"))
            #expect(stream.contains(">Milk<\\/a>"))
        }
    }
}
