import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenCoreDataTestSupport
import Testing
@testable import WebApp

/// The web app's defences, request by request: each refused request changes nothing.
@Suite struct SecurityTests {
    /// The root list's items' titles, read through a new tab's page.
    static func titles(_ browser: TestBrowser) async throws -> [String] {
        try await browser.get("/lists").rowTitles
    }

    @Test func everyResponseCarriesThePolicyHeaders() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            for path in ["/", "/lists", "/static/live.js", "/no-such-page"] {
                let page = try await browser.get(path)
                let policy = try #require(page.headers[.contentSecurityPolicy], "\(path)")
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path)")
                #expect(page.headers[.xContentTypeOptions] == "nosniff", "\(path)")
            }
        }
    }

    @Test func theSessionCookieIsHttpOnlyAndSameSiteStrict() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let response = try await client.execute(uri: "/lists", method: .get)
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix("ocd_session="))
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
        }
    }

    @Test func aFormWithoutTheTokenIsRefusedAndChangesNothing() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let list = try #require(TestBrowser.attribute("data-live", in: try await browser.get("/lists").text)).replacingOccurrences(of: "/events", with: "")
            for token in ["", "0000", String(repeating: "a", count: 64)] {
                let refused = try await browser.post("\(list)/add", ["title": "Forged", "csrf": token])
                #expect(refused.status == .forbidden)
                #expect(refused.text.contains("security token"))
            }
            #expect(try await Self.titles(browser) == [])
            let accepted = try await browser.post("\(list)/add", ["title": "Real"])
            #expect(accepted.status == .seeOther)
            #expect(try await Self.titles(browser) == ["Real"])
        }
    }

    @Test func aFormFromAnotherSiteIsRefused() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let crossSite = try await browser.post("/lists/1/add", ["title": "A"], headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(crossSite.status == .forbidden)
            let otherOrigin = try await browser.post("/lists/1/add", ["title": "B"], headers: [.origin: "http://evil.example"])
            #expect(otherOrigin.status == .forbidden)
            #expect(try await Self.titles(browser) == [])
        }
    }

    @Test func aFormWithoutASessionIsRefused() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            browser.cookie = "ocd_session=unknown"
            let refused = try await browser.post("/lists/1/add", ["title": "A"])
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("session has expired"))
        }
    }

    @Test func getNeverChangesState() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            for path in ["/lists/1/add?title=A", "/undo", "/lists/1/items/1/delete"] {
                let page = try await browser.get(path)
                #expect(page.status == .notFound || page.status == .methodNotAllowed, "\(path)")
            }
            #expect(try await Self.titles(browser) == [])
        }
    }

    @Test func oversizedMalformedAndNonFormBodiesGet4xx() async throws {
        let harness = try await WebAppHarness(configuration: .init(maxFormSize: 1024))
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let large = try await browser.post("/lists/1/add", ["title": String(repeating: "x", count: 4096)])
            #expect(large.status == .contentTooLarge)
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: browser.cookie ?? ""]
            let malformed = try await client.execute(uri: "/lists/1/add", method: .post, headers: headers, body: ByteBuffer(string: "title=%ZZ&tab=\(browser.tab ?? "")&csrf=\(browser.csrf ?? "")"))
            #expect(malformed.status == .badRequest)
            headers[.contentType] = "application/json"
            let json = try await client.execute(uri: "/lists/1/add", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(json.status == .unsupportedMediaType)
            #expect(try await Self.titles(browser) == [])
        }
    }

    @Test func userTextIsEscapedInTextAndAttributes() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let title = "<script>alert(1)</script>\" onmouseover=\"x"
            #expect(try await browser.post("/lists/1/add", ["title": title]).status == .seeOther)
            let page = try await browser.get("/lists")
            #expect(!page.text.contains("<script>alert"))
            #expect(!page.text.contains("\" onmouseover=\"x"))
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        }
    }

    @Test func backLinksNeverLeaveTheSite() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            for back in ["//evil.example/", "https://evil.example/", "/\\evil.example"] {
                let page = try await browser.post("/lists/1/add", ["title": "A", "back": back])
                #expect(page.status == .seeOther)
                #expect(page.headers[.location] == "/lists/1", "\(back)")
            }
        }
    }

    @Test func errorPagesSayWhatWentWrongWithoutInternals() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            let unknown = try await browser.get("/lists/999999")
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains("There is no Item 999999"))
            for leak in ["SELECT", "ZITEM", "/tmp", ".swift", "Demo.sqlite"] { #expect(!unknown.text.contains(leak), "\(leak)") }
            #expect(try await browser.get("/lists/abc").status == .notFound)
        }
    }

    @Test func anotherHostNameIsRefused() async throws {
        let harness = try await WebAppHarness()
        try await harness.live { port in
            let refused = try await RawHTTP.exchange(port: port, request: "GET /lists HTTP/1.1\r\nHost: rebind.evil.example:\(port)\r\nConnection: close\r\n\r\n")
            #expect(refused.hasPrefix("HTTP/1.1 421"), "\(refused.prefix(80))")
            for host in ["localhost:\(port)", "127.0.0.1:\(port)"] {
                let served = try await RawHTTP.exchange(port: port, request: "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
                #expect(served.hasPrefix("HTTP/1.1 200"), "\(host): \(served.prefix(80))")
            }
        }
    }

    @Test func theEventStreamNeedsTheTokenAndTheSite() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let noToken = try await browser.get("/lists/1/events?tab=\(browser.tab ?? "")")
            #expect(noToken.status == .forbidden)
            let crossSite = try await browser.get(
                "/lists/1/events?tab=\(browser.tab ?? "")&csrf=\(browser.csrf ?? "")",
                headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            )
            #expect(crossSite.status == .forbidden)
        }
    }
}
