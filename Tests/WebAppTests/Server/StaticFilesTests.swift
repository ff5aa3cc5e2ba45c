import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WebApp

/// `/static/`: the script, the style sheet and the icon, each with its type, and nothing
/// else — no other name, no path that reaches the file system.
@Suite struct StaticFilesTests {
    @Test func eachFileIsServedWithItsType() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            for (name, type, start) in [
                ("live.js", "text/javascript; charset=utf-8", "//"),
                ("style.css", "text/css; charset=utf-8", ""),
                ("icon.svg", "image/svg+xml", "<svg"),
            ] {
                let file = try await browser.get("/static/\(name)")
                #expect(file.status == .ok, "\(name)")
                #expect(file.headers[.contentType] == type, "\(name)")
                #expect(file.text.hasPrefix(start), "\(name)")
            }
        }
    }

    @Test func everyPageLinksTheScriptTheStylesAndTheIcon() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            for path in ["/", "/lists", "/projects", "/no-such-page"] {
                let page = try await browser.get(path)
                #expect(page.text.contains("href=\"/static/style.css\""), "\(path)")
                #expect(page.text.contains("href=\"/static/icon.svg\""), "\(path): a browser asks for /favicon.ico without it")
                if page.status == .ok { #expect(page.text.contains("src=\"/static/live.js\""), "\(path)") }
            }
        }
    }

    @Test(arguments: ["/static/", "/static/missing.js", "/static/..%2FPackage.swift", "/static/%2E%2E/Templates/home.mustache", "/static/Templates"])
    func anythingElseIsNotFound(path: String) async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let response = try await TestBrowser(client).get(path)
            #expect(response.status == .notFound, "\(path) → \(response.status)")
            #expect(!response.text.contains("import"), "\(path)")
        }
    }
}
