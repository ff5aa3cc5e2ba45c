import BugsKit
import DemoStore
import EditingSession
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenCoreData
import Testing
@testable import WebApp

/// `/projects` and its forms, as a browser without JavaScript uses them (303s) and as the
/// page's script does (JSON).
@Suite struct ProjectsPagesTests {
    static let projects: [(name: String, url: String)] = [
        ("Site", "https://example.com/site"), ("Docs", "https://example.com/docs"),
        ("Tool", "https://tools.dev/tool"), ("Mail", "mailto:bugs@example.com"), ("Plain", ""),
    ]

    /// A browser that added `projects` through the add form.
    static func browser(_ client: any TestClientProtocol, adding projects: [(name: String, url: String)] = projects) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        try await browser.get("/projects")
        for project in projects {
            let added = try await browser.post("/projects/add", ["name": project.name, "url": project.url, "back": browser.inTab("/projects")])
            #expect(added.status == .seeOther)
            #expect(added.headers[.location] == browser.inTab("/projects"))
        }
        return browser
    }

    @Test func projectsAreSectionedByHostWithIndexTitles() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = try await Self.browser(client)
            let page = try await browser.get(browser.inTab("/projects"))
            #expect(page.status == .ok)
            let sections = BugsPageReading.sections(page.text)
            #expect(sections.map(\.name) == ["", "example.com", "tools.dev"])
            #expect(sections.map(\.projects) == [["Mail", "Plain"], ["Docs", "Site"], ["Tool"]])
            #expect(page.text.contains("<nav id=\"section-index\" aria-label=\"Sections\"><a href=\"#section-\">#</a> <a href=\"#section-example.com\">E</a> <a href=\"#section-tools.dev\">T</a> </nav>"))
            #expect(page.text.contains("<h2><span class=\"index-title\">#</span> No website</h2>"))
            #expect(page.text.contains("<h2><span class=\"index-title\">E</span> example.com</h2>"))
            #expect(page.text.contains("<div id=\"sections\" class=\"sections\" data-live=\"/projects/events\">"))
            #expect(page.text.contains("<form id=\"add-project\""))
            let tool = try BugsPageReading.projectReference("Tool", in: page.text)
            #expect(page.text.contains("<a class=\"open\" href=\"/projects/\(tool)?tab=\(browser.tab ?? "")\" data-field=\"name\">Tool</a>"))
            #expect(page.text.contains("<a class=\"url\" href=\"https://tools.dev/tool\" rel=\"noopener noreferrer nofollow\">"))
            #expect(page.text.contains("<form class=\"rename\" method=\"post\" action=\"/projects/\(tool)/edit\">"))
            #expect(page.text.contains(">Undo Add Project “Plain”</button>"))
        }
    }

    @Test func aSearchShowsOneSectionWithoutEditForms() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = try await Self.browser(client)
            let page = try await browser.get(browser.inTab("/projects?q=EXAMPLE"))
            let sections = BugsPageReading.sections(page.text)
            #expect(sections.map(\.name) == [""])
            #expect(sections.map(\.projects) == [["Mail", "Docs", "Site"]], "by host, then name, as the controller sorts them")
            #expect(page.text.contains("<h2>Search results</h2>"))
            #expect(page.text.contains("name=\"q\" value=\"EXAMPLE\""))
            #expect(page.text.contains("data-live=\"/projects/search/EXAMPLE/events\""))
            #expect(!page.text.contains("id=\"add-project\""))
            #expect(!page.text.contains("class=\"rename\""))
            #expect(!page.text.contains("class=\"delete\""))
            #expect(!page.text.contains("id=\"section-index\""))

            let none = try await browser.get(browser.inTab("/projects?q=%3Cb%3Enothing"))
            #expect(BugsPageReading.sections(none.text).map(\.projects) == [[]], "an empty section, where live inserts go")
            #expect(none.text.contains("No project matches “&lt;b&gt;nothing”."))
            #expect(none.text.contains("data-live=\"/projects/search/%3Cb%3Enothing/events\""))

            let blank = try await browser.get(browser.inTab("/projects?q=%20%20"))
            #expect(BugsPageReading.sections(blank.text).count == 3, "blank search text is no search")
        }
    }

    @Test func theSearchFormsQueryIsReadAsAForm() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = try await Self.browser(client, adding: [("Swift lang", "https://swift.org"), ("C++", ""), ("Swift", "")])
            let spaced = try await browser.get(browser.inTab("/projects?q=swift+lang"))
            #expect(BugsPageReading.sections(spaced.text).map(\.projects) == [["Swift lang"]], "+ is a space")
            let plus = try await browser.get(browser.inTab("/projects?q=c%2B%2B"))
            #expect(BugsPageReading.sections(plus.text).map(\.projects) == [["C++"]], "%2B is a plus")
            #expect(plus.text.contains("data-live=\"/projects/search/c%2B%2B/events\""))
            #expect(try await browser.get(browser.inTab("/projects?q=%ZZ")).status == .badRequest)
        }
    }

    @Test func editMovesAProjectToItsNewHostAndDeleteTakesItsBugs() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let browser = try await Self.browser(client)
            var page = try await browser.get(browser.inTab("/projects"))
            let tool = try BugsPageReading.projectReference("Tool", in: page.text)
            let edited = try await browser.post("/projects/\(tool)/edit", ["name": "Toolkit", "url": "https://example.com/kit"])
            #expect(edited.status == .seeOther)
            page = try await browser.get(browser.inTab("/projects"))
            #expect(BugsPageReading.sections(page.text).map(\.name) == ["", "example.com"])
            #expect(BugsPageReading.sections(page.text).last?.projects == ["Docs", "Site", "Toolkit"])
            #expect(page.text.contains(">Undo Edit Project “Toolkit”</button>"))

            let site = try BugsPageReading.projectReference("Site", in: page.text)
            _ = try store.freshTracker().addBug(to: try #require(Reference(site)), title: "Crash")
            #expect(try await browser.post("/projects/\(site)/delete").status == .seeOther)
            #expect(try store.saved()["Site"] == nil)
            #expect(try store.freshTracker().session.read { try $0.count(for: FetchRequest<BugsKit.Bug>(entityName: "Bug")) } == 0)
            page = try await browser.get(browser.inTab("/projects"))
            #expect(page.text.contains(">Undo Delete Project “Site”</button>"))
            #expect(try await browser.post("/undo").status == .seeOther)
            #expect(try store.saved()["Site"] == ["Crash"], "undo brings the project back with its bug")
        }
    }

    @Test func theScriptGetsJSON() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = try await Self.browser(client, adding: [])
            let added = try await browser.post("/projects/add", ["name": "Swift", "url": "https://swift.org"], json: true)
            #expect(added.status == .ok)
            #expect(added.headers[.contentType] == "application/json")
            #expect(added.text.contains("\"ok\":true"))
            #expect(added.text.contains("\"undo\":\"Undo Add Project “Swift”\""))
            let refused = try await browser.post("/projects/add", ["name": " "], json: true)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("\"ok\":false"))
            #expect(refused.text.contains("\"message\":\"The project name is empty.\""))
        }
    }

    /// Bad input: the page again, with the message, a 4xx, and nothing changed.
    @Test(arguments: [
        ("/projects/add", ["name": ""], HTTPResponse.Status.badRequest, "The project name is empty."),
        ("/projects/add", ["name": "   "], .badRequest, "The project name is empty."),
        ("/projects/add", ["name": String(repeating: "x", count: 201)], .badRequest, "The project name is too long (at most 200 characters)."),
        ("/projects/add", ["name": "Two\nlines"], .badRequest, "The project name contains control characters such as line breaks."),
        ("/projects/add", ["name": "Evil", "url": "javascript:alert(1)"], .badRequest, "“javascript:alert(1)” is not a URL the tracker accepts: the scheme must be http, https or mailto."),
        ("/projects/add", ["name": "Bare", "url": "swift.org"], .badRequest, "“swift.org” is not a URL the tracker accepts: it needs a scheme, as in https://swift.org."),
        ("/projects/PROJECT/edit", ["name": ""], .badRequest, "The project name is empty."),
        ("/projects/PROJECT/edit", ["name": "Site", "url": "data:text/html,hi"], .badRequest, "“data:text/html,hi” is not a URL the tracker accepts: the scheme must be http, https or mailto."),
        ("/projects/999/edit", ["name": "Ghost"], .notFound, "There is no Project 999: it may have been deleted."),
        ("/projects/999/delete", [:], .notFound, "There is no Project 999: it may have been deleted."),
    ])
    func badInputIsRefusedWithThePageAndAMessage(path: String, fields: [String: String], status: HTTPResponse.Status, message: String) async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let browser = try await Self.browser(client, adding: [("Site", "https://example.com")])
            let page = try await browser.get(browser.inTab("/projects"))
            let site = try BugsPageReading.projectReference("Site", in: page.text)
            let before = try store.saved()
            var fields = fields
            fields["back"] = browser.inTab("/projects")
            let answer = try await browser.post(path.replacingOccurrences(of: "PROJECT", with: site), fields)
            #expect(answer.status == status)
            #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            #expect(answer.text.contains("<h1 id=\"title\">Projects</h1>"), "the page the form was on")
            #expect(BugsPageReading.message(answer.text) == Self.escaped(message))
            #expect(try store.saved() == before)
            #expect(try store.saved()["Site"] != nil)
        }
    }

    @Test(arguments: ["/projects/abc/edit", "/projects/0/delete", "/projects/-1/delete", "/projects/1x/edit"])
    func aPathThatIsNoReferenceIsNotFound(path: String) async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let browser = try await Self.browser(client, adding: [])
            let answer = try await browser.post(path, ["name": "X"])
            #expect(answer.status == .notFound)
            #expect(answer.text.contains("There is no such project."))
            #expect(try store.saved().isEmpty)
        }
    }

    @Test func userTextIsEscapedInTextAndAttributes() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let name = "<script>alert('name')</script>\" onmouseover=\"x"
            let url = "https://example.com/?q=\"><script>alert(1)</script>"
            let browser = try await Self.browser(client, adding: [(name, url)])
            let page = try await browser.get(browser.inTab("/projects"))
            #expect(!page.text.contains("<script>alert"))
            #expect(!page.text.contains("\" onmouseover=\"x"))
            #expect(page.text.contains("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;&quot; onmouseover=&quot;x"))
            #expect(page.text.contains("href=\"https://example.com/?q=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""))
            let search = try await browser.get(browser.inTab("/projects?q=%22%3E%3Cscript%3E"))
            #expect(!search.text.contains("\"><script>"))
            #expect(search.text.contains("value=\"&quot;&gt;&lt;script&gt;\""))
        }
    }

    @Test func aFormWithoutTheTokenChangesNothing() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let browser = try await Self.browser(client, adding: [])
            let answer = try await browser.post("/projects/add", ["name": "Forged", "csrf": "not-the-token"])
            #expect(answer.status == .forbidden)
            #expect(try store.saved().isEmpty)
        }
    }

    /// `text` as Mustache escapes it in a page.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }
}
