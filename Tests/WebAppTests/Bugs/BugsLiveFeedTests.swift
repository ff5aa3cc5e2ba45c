import BugsKit
import DemoStore
import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import WebApp

/// The tracker's live lists: the project list's and a project's bugs' fetched results
/// controllers, on a tab's context, as the DOM operations a page applies — for another
/// tab's actions, another process's, and the tab's own.
@Suite struct BugsLiveFeedTests {
    /// Two tabs of one browser session: `watching` shows a page, `other` edits.
    static func tabs(_ harness: WebAppHarness) throws -> (watching: Tab, other: Tab, form: FormValues) {
        let browser = harness.app.sessions.makeSession()
        let watching = try browser.tab(nil, store: harness.store, author: harness.app.author)
        let other = try browser.tab(nil, store: harness.store, author: harness.app.author)
        return (watching, other, try harness.app.pages.form(tab: watching.id, csrf: browser.csrfToken, back: "/projects?tab=\(watching.id)"))
    }

    static func projectsFeed(_ harness: WebAppHarness, _ tab: Tab, _ form: FormValues, searching text: String? = nil) async throws -> FeedWatch {
        let pages = harness.app.pages
        return try await FeedWatch { continuation in
            try ProjectsRoutes.startFeed(searching: text, pages: pages, form: form, tab: tab, continuation: continuation)
        }
    }

    @Test func projectsOfANewHostInsertTheirSection() async throws {
        let harness = try await WebAppHarness()
        let (tab, other, form) = try Self.tabs(harness)
        let site = try other.editor.tracker.addProject(name: "Site", url: "https://example.com/site")
        let watch = try await Self.projectsFeed(harness, tab, form)
        let reset = try await watch.reset(0)
        #expect(BugsPageReading.sections(reset.html).map(\.name) == ["example.com"])
        #expect(BugsPageReading.sections(reset.html).map(\.projects) == [["Site"]])

        // Another tab adds a project of a new host: its section arrives first, in its place.
        let tool = try other.editor.tracker.addProject(name: "Tool", url: "https://tools.dev/tool")
        var (change, index) = try await watch.change(after: 0, touching: "project-\(tool.reference)")
        #expect(change.ops.map(\.op) == ["insertSection", "insert"])
        try #require(change.ops.count == 2)
        #expect(change.ops[0].section == "tools.dev" && change.ops[0].before == nil)
        #expect(change.ops[0].html?.contains("data-section=\"tools.dev\"") == true)
        #expect(change.ops[0].html?.contains("<span class=\"index-title\">T</span> tools.dev</h2><ul class=\"rows\"></ul>") == true)
        #expect(change.ops[1].section == "tools.dev")
        #expect(change.ops[1].html?.contains("data-field=\"name\">Tool</a>") == true)
        #expect(change.ops[1].html?.contains("name=\"csrf\" value=\"\(form.csrf)\"") == true, "the row's forms carry the session's token")

        // A project without a host goes first, in the "#" section.
        let plain = try other.editor.tracker.addProject(name: "Plain")
        (change, index) = try await watch.change(after: index, touching: "project-\(plain.reference)")
        #expect(change.ops.map(\.op) == ["insertSection", "insert"])
        try #require(change.ops.count == 2)
        #expect(change.ops[0].section == "" && change.ops[0].before == "example.com")
        #expect(change.ops[0].html?.contains("<span class=\"index-title\">#</span> No website") == true)

        // Another project of a known host: a row, before the one it sorts ahead of.
        let docs = try other.editor.tracker.addProject(name: "Docs", url: "https://example.com/docs")
        (change, index) = try await watch.change(after: index, touching: "project-\(docs.reference)")
        #expect(change.ops.map(\.op) == ["insert"])
        #expect(change.ops.first?.section == "example.com" && change.ops.first?.before == "project-\(site.reference)")

        // A bug changes its project's count.
        try other.editor.tracker.addBug(to: site.reference, title: "Crash")
        (change, index) = try await watch.change(after: index, touching: "project-\(site.reference)")
        #expect(change.ops.map(\.op) == ["update"])
        #expect(change.ops.first?.html?.contains(">1 bug</span>") == true)

        // A new URL moves the project into another host's section; the last project of a
        // host takes its section with it.
        try other.editor.tracker.editProject(tool.reference, url: "https://example.com/tool")
        (change, index) = try await watch.change(after: index, touching: "project-\(tool.reference)")
        #expect(change.ops.map(\.op) == ["deleteSection", "move"])
        #expect(change.ops.map(\.section) == ["tools.dev", "example.com"])

        try other.editor.tracker.deleteProject(plain.reference)
        (change, index) = try await watch.change(after: index, touching: "project-\(plain.reference)")
        #expect(change.ops.map(\.op) == ["deleteSection", "delete"])
        #expect(change.ops.map(\.section) == ["", nil])

        // The tab's own action arrives the same way.
        let mine = try tab.editor.tracker.addProject(name: "Mine", url: "https://example.com/mine")
        (change, index) = try await watch.change(after: index, touching: "project-\(mine.reference)")
        #expect(change.ops.map(\.op) == ["insert"])
        watch.stop()
    }

    @Test func aSearchFollowsOnlyItsMatches() async throws {
        let harness = try await WebAppHarness()
        let (tab, other, form) = try Self.tabs(harness)
        let watch = try await Self.projectsFeed(harness, tab, form, searching: "swift")
        let reset = try await watch.reset(0)
        #expect(BugsPageReading.sections(reset.html).map(\.name) == [""], "the search's one section, empty")
        #expect(reset.html.contains("<h2>Search results</h2>"))

        let rust = try other.editor.tracker.addProject(name: "Rust", url: "https://rust-lang.org")
        let swift = try other.editor.tracker.addProject(name: "Swift", url: "https://swift.org")
        let (change, _) = try await watch.change(after: 0, touching: "project-\(swift.reference)")
        #expect(change.ops.map(\.op) == ["insert"])
        #expect(change.ops.first?.html?.contains("class=\"rename\"") == false, "no edit forms in search results")
        #expect(try watch.changes().allSatisfy { !$0.ops.contains { $0.id == "project-\(rust.reference)" } }, "Rust does not match")
        watch.stop()
    }

    @Test func aProjectsBugsArriveNewestFirst() async throws {
        let harness = try await WebAppHarness()
        let (tab, other, form) = try Self.tabs(harness)
        let project = try other.editor.tracker.addProject(name: "Site").reference
        let first = try other.editor.tracker.addBug(to: project, title: "First", screenshot: Images.png)
        let pages = harness.app.pages
        let watch = try await FeedWatch { continuation in
            try BugsRoutes.startFeed(of: project, pages: pages, form: form, tab: tab, continuation: continuation)
        }
        let reset = try await watch.reset(0)
        #expect(TestBrowser.Page(status: .ok, headers: [:], text: reset.html).rowTitles == ["First"])
        #expect(reset.html.contains("<img src=\"/bugs/\(first.reference)/screenshot?tab=\(tab.id)\""))

        let second = try other.editor.tracker.addBug(to: project, title: "Second", details: "More")
        var (change, index) = try await watch.change(after: 0, touching: "bug-\(second.reference)")
        #expect(change.ops.map(\.op) == ["insert"])
        #expect(change.ops.first?.before == "bug-\(first.reference)")
        #expect(change.ops.first?.html?.contains("<p class=\"details\">More</p>") == true)

        try other.editor.tracker.editBug(first.reference, title: "First, renamed", screenshot: .remove)
        (change, index) = try await watch.change(after: index, touching: "bug-\(first.reference)")
        #expect(change.ops.map(\.op) == ["update"])
        #expect(change.ops.first?.html?.contains("data-field=\"title\">First, renamed</span>") == true)
        #expect(change.ops.first?.html?.contains("<img") == false)

        try other.editor.tracker.deleteBug(second.reference)
        (change, index) = try await watch.change(after: index, touching: "bug-\(second.reference)")
        #expect(change.ops.map(\.op) == ["delete"])
        watch.stop()
    }

    @Test func anotherProcessesProjectArrivesThroughTheHistory() async throws {
        let harness = try await WebAppHarness()
        let (tab, _, form) = try Self.tabs(harness)
        let watch = try await Self.projectsFeed(harness, tab, form)
        _ = try await watch.reset(0)
        // Another coordinator on the file stands for another process (the command line).
        let elsewhere = try DemoStore.open(at: harness.store.url)
        let tracker = BugTracker(session: EditingSession(context: elsewhere.newContext()))
        let added = try tracker.addProject(name: "From the CLI", url: "https://cli.example")
        let (change, _) = try await watch.change(after: 0, touching: "project-\(added.reference)")
        #expect(change.ops.map(\.op) == ["insertSection", "insert"])
        #expect(change.ops.last?.section == "cli.example")
        watch.stop()
    }

    @Test func anUnknownProjectHasNoFeed() async throws {
        let harness = try await WebAppHarness()
        let (tab, _, form) = try Self.tabs(harness)
        let pages = harness.app.pages
        await #expect(throws: EditingSessionError.self) {
            _ = try await FeedWatch { continuation in
                try BugsRoutes.startFeed(of: try #require(Reference(primaryKey: 999)), pages: pages, form: form, tab: tab, continuation: continuation)
            }
        }
    }

    /// How long a socket exchange may wait: long, since the whole suite runs in parallel
    /// on few cores (each exchange returns as soon as its answer is complete).
    static let patience: TimeInterval = 60

    /// The routes serve the feeds as event streams: a real server, read over a socket
    /// since a stream never ends.
    @Test func theEventStreamsStartWithTheWholeList() async throws {
        let harness = try await WebAppHarness()
        let project = try harness.store.freshTracker().addProject(name: "Tool", url: "https://tools.dev/tool").reference
        try await harness.live { port in
            let host = "Host: 127.0.0.1:\(port)\r\n"
            let first = try await RawHTTP.exchange(port: port, request: "GET /projects HTTP/1.1\r\n\(host)Connection: close\r\n\r\n", timeout: Self.patience)
            let cookie = try #require(first.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }?.dropFirst(11).split(separator: ";").first)
            let tab = try #require(TestBrowser.attribute("data-tab", in: first))
            let csrf = try #require(TestBrowser.attribute("data-csrf", in: first))
            // The search text comes percent-encoded in the path: "T%6Fo" is "Too".
            for (path, marker) in [("/projects/events", ">Tool<"), ("/projects/search/T%6Fo/events", ">Tool<"), ("/projects/\(project)/events", "event: reset")] {
                let stream = try await RawHTTP.exchange(
                    port: port,
                    request: "GET \(path)?tab=\(tab)&csrf=\(csrf) HTTP/1.1\r\n\(host)Cookie:\(cookie)\r\nAccept: text/event-stream\r\n\r\n",
                    until: marker, timeout: Self.patience
                )
                #expect(stream.hasPrefix("HTTP/1.1 200"), "\(path)")
                #expect(stream.lowercased().contains("content-type: text/event-stream"), "\(path)")
                #expect(stream.contains("event: reset\ndata: {\"html\":"), "\(path)")
                #expect(stream.contains(marker), "\(path)")
            }
            let refused = try await RawHTTP.exchange(
                port: port, request: "GET /projects/events?tab=\(tab)&csrf=wrong HTTP/1.1\r\n\(host)Cookie:\(cookie)\r\nConnection: close\r\n\r\n",
                timeout: Self.patience)
            #expect(refused.hasPrefix("HTTP/1.1 403"), "a stream needs the session's token")
            let unknown = try await RawHTTP.exchange(
                port: port, request: "GET /projects/999/events?tab=\(tab)&csrf=\(csrf) HTTP/1.1\r\n\(host)Cookie:\(cookie)\r\nConnection: close\r\n\r\n",
                timeout: Self.patience)
            #expect(unknown.hasPrefix("HTTP/1.1 404"))
        }
    }
}
