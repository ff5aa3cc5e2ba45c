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

/// A project's page, `/projects/{ref}`: its bugs newest first, the multipart forms that
/// add and edit them with a screenshot, and `/bugs/{ref}/screenshot`.
@Suite struct ProjectPageTests {
    /// A browser on the page of a new project “Site”, and the project's reference.
    static func browser(_ client: any TestClientProtocol, _ store: DemoStore) async throws -> (TestBrowser, String) {
        let project = try store.freshTracker().addProject(name: "Site", url: "https://example.com/site").reference.description
        let browser = TestBrowser(client)
        let page = try await browser.get("/projects/\(project)")
        #expect(page.status == .ok)
        return (browser, project)
    }

    /// The fields of the add-bug form, coming back to the project's page.
    static func bug(_ title: String, details: String = "", screenshot: Data? = nil, type: String = "image/png", back: String) -> [MultipartBody.Part] {
        [.field("back", back), .field("title", title), .field("details", details),
         .file("screenshot", filename: screenshot == nil ? "" : "shot", type: screenshot == nil ? "application/octet-stream" : type, screenshot ?? Data())]
    }

    @Test func bugsAreAddedWithScreenshotsAndListedNewestFirst() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let back = browser.inTab("/projects/\(project)")
            for (title, image) in [("Crash on save", Images.png), ("Typo in the footer", nil), ("Blurry logo", Images.jpeg)] {
                let added = try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug(title, details: "Line one\r\nline two", screenshot: image, back: back))
                #expect(added.status == .seeOther)
                #expect(added.headers[.location] == back)
            }
            let page = try await browser.get(back)
            #expect(page.text.contains("<h1 id=\"title\">Site</h1>"))
            #expect(page.text.contains("<span class=\"count\" data-counts=\"rows\" data-one=\"bug\" data-many=\"bugs\">3 bugs</span>"), "the count the page's script keeps in step with the rows")
            #expect(page.rowTitles == ["Blurry logo", "Typo in the footer", "Crash on save"])
            #expect(page.text.contains("<ol id=\"rows\" class=\"rows\" data-live=\"/projects/\(project)/events\">"))
            #expect(page.text.contains("<form id=\"add-bug\" class=\"add\" method=\"post\" action=\"/projects/\(project)/bugs/add\" enctype=\"multipart/form-data\">"))
            #expect(page.text.contains("<p class=\"details\">Line one\nline two</p>"), "the textarea's CRLF arrives as a line break")
            #expect(page.text.contains(">Undo Add Bug “Blurry logo”</button>"))

            let crash = try BugsPageReading.bugReference("Crash on save", in: page.text)
            let typo = try BugsPageReading.bugReference("Typo in the footer", in: page.text)
            let logo = try BugsPageReading.bugReference("Blurry logo", in: page.text)
            #expect(page.text.contains("<img src=\"/bugs/\(crash)/screenshot?tab=\(browser.tab ?? "")\" alt=\"Screenshot of Crash on save\">"))
            #expect(!page.text.contains("/bugs/\(typo)/screenshot"))

            for (bug, image, type) in [(crash, Images.png, "image/png"), (logo, Images.jpeg, "image/jpeg")] {
                let served = try await browser.get(browser.inTab("/bugs/\(bug)/screenshot"))
                #expect(served.status == .ok)
                #expect(served.headers[.contentType] == type)
                #expect(served.headers[.xContentTypeOptions] == "nosniff")
                #expect(served.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
                let bytes = try await client.execute(uri: browser.inTab("/bugs/\(bug)/screenshot"), method: .get, headers: [.cookie: browser.cookie ?? ""]) { Data($0.body.readableBytesView) }
                #expect(bytes == image)
            }
            let none = try await browser.get(browser.inTab("/bugs/\(typo)/screenshot"))
            #expect(none.status == .notFound)
            #expect(none.text.contains("This bug has no screenshot."))
            #expect(try await browser.get(browser.inTab("/bugs/999/screenshot")).status == .notFound)
            #expect(try await browser.get(browser.inTab("/bugs/nope/screenshot")).status == .notFound)
        }
    }

    /// Only a PNG or a JPEG, judged by its bytes: an SVG or an HTML page is refused however
    /// it is named or typed, and nothing is added.
    @Test(arguments: [
        (Images.svg, "image/svg+xml"), (Images.svg, "image/png"), (Images.html, "text/html"), (Images.html, "image/jpeg"),
        (Data("GIF89a".utf8), "image/gif"),
    ])
    func aScreenshotThatIsNotAPNGOrJPEGIsRefused(bytes: Data, type: String) async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let answer = try await browser.postMultipart(
                "/projects/\(project)/bugs/add", Self.bug("Sneaky", screenshot: bytes, type: type, back: browser.inTab("/projects/\(project)")))
            #expect(answer.status == .badRequest)
            #expect(answer.text.contains("<h1 id=\"title\">Site</h1>"), "the project's page")
            #expect(BugsPageReading.message(answer.text) == "The screenshot is not a PNG or JPEG image.")
            #expect(try store.saved() == ["Site": []])
        }
    }

    /// Bad input: the project's page again with the message, a 4xx, and nothing changed.
    @Test(arguments: [
        ("", "", HTTPResponse.Status.badRequest, "The bug title is empty."),
        (String(repeating: "t", count: 201), "", .badRequest, "The bug title is too long (at most 200 characters)."),
        ("Long", "10,001 × d", .badRequest, "The bug details is too long (at most 10000 characters)."),
        ("Nul", "a\u{0}b", .badRequest, "The bug details contain control characters (only line breaks and tabs are allowed)."),
        ("Huge", "40,000 × é", .contentTooLarge, "The field “details” is too large (at most 64 KiB)."),
    ])
    func badFieldsAreRefusedWithThePageAndAMessage(title: String, details: String, status: HTTPResponse.Status, message: String) async throws {
        let details = Self.expanded(details)
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let answer = try await browser.postMultipart(
                "/projects/\(project)/bugs/add", Self.bug(title, details: details, screenshot: Images.png, back: browser.inTab("/projects/\(project)")))
            #expect(answer.status == status)
            #expect(answer.text.contains("<h1 id=\"title\">Site</h1>"))
            #expect(BugsPageReading.message(answer.text) == ProjectsPagesTests.escaped(message))
            #expect(try store.saved() == ["Site": []])
        }
    }

    /// `"10,001 × d"` as 10,001 d's (long arguments are named, so a failure reads well);
    /// any other text as it is.
    static func expanded(_ text: String) -> String {
        let parts = text.components(separatedBy: " × ")
        guard parts.count == 2, let count = Int(parts[0].replacingOccurrences(of: ",", with: "")) else { return text }
        return String(repeating: parts[1], count: count)
    }

    @Test func aScreenshotOverFourMebibytesIsRefusedWithThePage() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let big = Images.png + Data(count: Screenshot.maximumSize + 1 - Images.png.count)
            let answer = try await browser.postMultipart(
                "/projects/\(project)/bugs/add", Self.bug("Big", screenshot: big, back: browser.inTab("/projects/\(project)")))
            #expect(answer.status == .contentTooLarge)
            #expect(BugsPageReading.message(answer.text) == "The file “screenshot” is too large (at most 4 MiB).")
            #expect(try store.saved() == ["Site": []])

            let fits = try await browser.postMultipart(
                "/projects/\(project)/bugs/add", Self.bug("Just fits", screenshot: big.dropLast(), back: browser.inTab("/projects/\(project)")))
            #expect(fits.status == .seeOther)
            #expect(try store.saved() == ["Site": ["Just fits"]])

            let huge = Images.png + Data(count: 6 * 1024 * 1024)
            let refused = try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug("Huge", screenshot: huge, back: "/"))
            #expect(refused.status == .contentTooLarge, "a body whose length is over the upload limit is not read")
            #expect(refused.text.contains("The form is too large"))
            #expect(try store.saved() == ["Site": ["Just fits"]])
        }
    }

    @Test func theScriptGetsJSON() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let back = browser.inTab("/projects/\(project)")
            let added = try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug("Crash", screenshot: Images.png, back: back), json: true)
            #expect(added.status == .ok)
            #expect(added.text.contains("\"ok\":true"))
            #expect(added.text.contains("\"undo\":\"Undo Add Bug “Crash”\""))
            let svg = try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug("Evil", screenshot: Images.svg, back: back), json: true)
            #expect(svg.status == .badRequest)
            #expect(svg.text.contains("\"message\":\"The screenshot is not a PNG or JPEG image.\""))
            let big = Images.png + Data(count: Screenshot.maximumSize)
            let tooLarge = try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug("Big", screenshot: big, back: back), json: true)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.text.contains("\"ok\":false"))
            let malformed = try await browser.postMultipart("/projects/\(project)/bugs/add", [], json: true, body: Data("--x".utf8))
            #expect(malformed.status == .badRequest)
            #expect(malformed.headers[.contentType] == "application/json")
            #expect(try store.saved() == ["Site": ["Crash"]])
        }
    }

    /// A body that is not a readable multipart form: a 4xx error page that says why, and
    /// nothing changed.
    @Test(arguments: [
        ("multipart/form-data; boundary=\(MultipartBody.boundary)", "cut", HTTPResponse.Status.badRequest, "The form could not be read: its multipart body is malformed or incomplete."),
        ("multipart/form-data; boundary=\(MultipartBody.boundary)", "garbage", .badRequest, "The form could not be read: its multipart body is malformed or incomplete."),
        ("multipart/form-data", "whole", .badRequest, "The form&#39;s multipart boundary is missing or invalid."),
        ("application/x-www-form-urlencoded", "whole", .unsupportedMediaType, "The form was not sent as multipart/form-data."),
    ])
    func aMalformedMultipartBodyIsRefused(contentType: String, body: String, status: HTTPResponse.Status, message: String) async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let parts = Self.bug("Half", screenshot: Images.png, back: "/")
            let whole = MultipartBody([.field("tab", browser.tab ?? ""), .field("csrf", browser.csrf ?? "")] + parts).data
            let bytes = switch body {
            case "cut": whole.prefix(whole.count - 30)
            case "garbage": Data("--\(MultipartBody.boundary)\r\nthis is no header\r\n\r\n".utf8)
            default: whole
            }
            let answer = try await browser.postMultipart("/projects/\(project)/bugs/add", parts, contentType: contentType, body: bytes)
            #expect(answer.status == status)
            #expect(answer.text.contains(message))
            #expect(try store.saved() == ["Site": []])
        }
    }

    @Test func anUnknownProjectIsNotFound() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, _) = try await Self.browser(client, store)
            let page = try await browser.get(browser.inTab("/projects/999"))
            #expect(page.status == .notFound)
            #expect(page.text.contains("There is no Project 999: it may have been deleted."))
            #expect(try await browser.get(browser.inTab("/projects/x1")).status == .notFound)
            let added = try await browser.postMultipart("/projects/999/bugs/add", Self.bug("Lost", back: browser.inTab("/projects")))
            #expect(added.status == .notFound)
            #expect(BugsPageReading.message(added.text) == "There is no Project 999: it may have been deleted.")
            #expect(added.text.contains("<h1 id=\"title\">Projects</h1>"), "back to the page the form named")
            #expect(try store.saved() == ["Site": []])
        }
    }

    @Test func editReplacesOrRemovesTheScreenshotAndDeleteRemovesTheBug() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let back = browser.inTab("/projects/\(project)")
            try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug("Crash", details: "Boom", screenshot: Images.png, back: back))
            var page = try await browser.get(back)
            let crash = try BugsPageReading.bugReference("Crash", in: page.text)
            #expect(page.text.contains("<form class=\"edit\" method=\"post\" action=\"/bugs/\(crash)/edit\" enctype=\"multipart/form-data\">"))

            // A new title, no details, and a JPEG instead of the PNG.
            var edited = try await browser.postMultipart("/bugs/\(crash)/edit", [
                .field("back", back), .field("title", "Crash on save"), .field("details", ""),
                .file("screenshot", filename: "new.jpg", type: "image/jpeg", Images.jpeg),
            ])
            #expect(edited.status == .seeOther)
            #expect(edited.headers[.location] == back)
            page = try await browser.get(back)
            #expect(page.rowTitles == ["Crash on save"])
            #expect(!page.text.contains("class=\"details\""))
            #expect(try await browser.get(browser.inTab("/bugs/\(crash)/screenshot")).headers[.contentType] == "image/jpeg")

            // An SVG in its place is refused, and the JPEG stays.
            edited = try await browser.postMultipart("/bugs/\(crash)/edit", [
                .field("back", back), .field("title", "Crash on save"), .field("details", ""),
                .file("screenshot", filename: "x.svg", type: "image/svg+xml", Images.svg),
            ])
            #expect(edited.status == .badRequest)
            #expect(BugsPageReading.message(edited.text) == "The screenshot is not a PNG or JPEG image.")
            #expect(try await browser.get(browser.inTab("/bugs/\(crash)/screenshot")).headers[.contentType] == "image/jpeg")

            // Removing it.
            edited = try await browser.postMultipart("/bugs/\(crash)/edit", [
                .field("back", back), .field("title", "Crash on save"), .field("details", ""), .field("remove-screenshot", "1"),
                .file("screenshot", filename: "", type: "application/octet-stream", Data()),
            ])
            #expect(edited.status == .seeOther)
            #expect(try await browser.get(browser.inTab("/bugs/\(crash)/screenshot")).status == .notFound)

            let deleted = try await browser.post("/bugs/\(crash)/delete", ["back": back])
            #expect(deleted.status == .seeOther)
            page = try await browser.get(back)
            #expect(page.rowTitles.isEmpty)
            #expect(page.text.contains(">Undo Delete Bug “Crash on save”</button>"))
            #expect(try await browser.post("/bugs/\(crash)/delete", ["back": back]).status == .notFound)
            #expect(try await browser.postMultipart("/bugs/\(crash)/edit", [.field("back", back), .field("title", "Gone")]).status == .notFound)
        }
    }

    /// Bytes written around the tracker (another program) that are not an image are never
    /// served as one.
    @Test func aStoredNonImageIsNeverServed() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let tracker = store.freshTracker()
            let bug = try tracker.addBug(to: try #require(Reference(project)), title: "Planted")
            try tracker.session.read { context in
                let object = try tracker.session.object(bug.reference)
                object.screenshot = Images.svg
                try context.save()
            }
            let answer = try await browser.get(browser.inTab("/bugs/\(bug.reference)/screenshot"))
            #expect(answer.status.code >= 400 && answer.status.code < 500)
            #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            #expect(!answer.text.contains("<svg"))
            let page = try await browser.get(browser.inTab("/projects/\(project)"))
            #expect(!page.text.contains("/bugs/\(bug.reference)/screenshot"), "no image is shown for it")
        }
    }

    @Test func bugTextIsEscaped() async throws {
        let harness = try await WebAppHarness()
        let store = harness.store
        try await harness.test { client in
            let (browser, project) = try await Self.browser(client, store)
            let back = browser.inTab("/projects/\(project)")
            try await browser.postMultipart("/projects/\(project)/bugs/add", Self.bug("<img src=x onerror=alert(1)>", details: "</textarea><script>alert(2)</script>", back: back))
            let page = try await browser.get(back)
            #expect(!page.text.contains("<img src=x"))
            #expect(!page.text.contains("<script>alert(2)"))
            #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
            #expect(page.text.contains("&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;</textarea>"))
        }
    }
}
