import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenCoreDataTestSupport
import Testing
@testable import WebApp

/// The nested lists' pages and forms, as a browser without JavaScript uses them (303s)
/// and as the page's script does (JSON).
@Suite struct ListsPagesTests {
    static func titles(_ page: TestBrowser.Page) -> [String] { page.rowTitles }

    /// The reference of the row titled `title` on `page`.
    static func reference(of title: String, in page: TestBrowser.Page) throws -> String {
        let row = try #require(page.text.components(separatedBy: "<li class=\"row\"").first { $0.contains("data-field=\"title\">\(title)<") })
        return try #require(TestBrowser.attribute("data-ref", in: row))
    }

    @Test func addRenameMoveAndDeleteThroughForms() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            for title in ["Milk", "Bread", "Eggs"] {
                let added = try await browser.post("/lists/1/add", ["title": title, "back": "/lists?tab=\(browser.tab ?? "")"])
                #expect(added.status == .seeOther)
                #expect(added.headers[.location] == "/lists?tab=\(browser.tab ?? "")")
            }
            var page = try await browser.get("/lists?tab=\(browser.tab ?? "")")
            #expect(Self.titles(page) == ["Milk", "Bread", "Eggs"])
            let eggs = try Self.reference(of: "Eggs", in: page)
            #expect(try await browser.post("/lists/1/items/\(eggs)/move", ["to": "0"]).status == .seeOther)
            let bread = try Self.reference(of: "Bread", in: page)
            #expect(try await browser.post("/lists/1/items/\(bread)/rename", ["title": "Rye"]).status == .seeOther)
            page = try await browser.get("/lists?tab=\(browser.tab ?? "")")
            #expect(Self.titles(page) == ["Eggs", "Milk", "Rye"])
            #expect(page.text.contains(">Undo Rename “Bread”</button>"))
            let milk = try Self.reference(of: "Milk", in: page)
            #expect(try await browser.post("/lists/1/items/\(milk)/delete").status == .seeOther)
            #expect(Self.titles(try await browser.get("/lists?tab=\(browser.tab ?? "")")) == ["Eggs", "Rye"])
        }
    }

    @Test func subListsThreeLevelsDeepWithBreadcrumbAndCascadingDelete() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            var list = "1"
            var path: [String] = []
            for title in ["Home", "Kitchen", "Drawer"] {
                try await browser.post("/lists/\(list)/add", ["title": title])
                let page = try await browser.get(list == "1" ? "/lists?tab=\(browser.tab ?? "")" : "/lists/\(list)?tab=\(browser.tab ?? "")")
                list = try Self.reference(of: title, in: page)
                path.append(list)
            }
            try await browser.post("/lists/\(list)/add", ["title": "Spoon"])
            let deepest = try await browser.get("/lists/\(list)?tab=\(browser.tab ?? "")")
            #expect(Self.titles(deepest) == ["Spoon"])
            #expect(deepest.text.contains(">Lists</a> › <a href=\"/lists/\(path[0])?tab="))
            #expect(deepest.text.contains("<h1 id=\"title\">Drawer</h1>"))
            // Deleting "Home" takes the whole subtree; its pages are gone.
            #expect(try await browser.post("/lists/1/items/\(path[0])/delete").status == .seeOther)
            #expect(try await browser.get("/lists/\(list)").status == .notFound)
            // Undo brings all three levels back.
            #expect(try await browser.post("/undo").status == .seeOther)
            #expect(Self.titles(try await browser.get("/lists/\(list)?tab=\(browser.tab ?? "")")) == ["Spoon"])
        }
    }

    @Test func badInputComesBackWithTheMessageA4xxAndNoChange() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            try await browser.post("/lists/1/add", ["title": "Milk"])
            let cases: [(String, [String: String], HTTPResponse.Status, String)] = [
                ("/lists/1/add", ["title": "   "], .badRequest, "The title is empty"),
                ("/lists/1/add", ["title": String(repeating: "x", count: 201)], .badRequest, "200"),
                ("/lists/1/add", ["title": "a\u{7}b"], .badRequest, "control"),
                ("/lists/999/add", ["title": "A"], .notFound, "There is no Item 999"),
                ("/lists/1/items/999/rename", ["title": "A"], .notFound, "There is no Item 999"),
                ("/lists/1/items/2/move", ["to": "7"], .badRequest, "out of range"),
                ("/lists/1/items/2/move", ["to": "up"], .badRequest, "whole number"),
            ]
            for (path, fields, status, message) in cases {
                let page = try await browser.post(path, fields.merging(["back": "/lists?tab=\(browser.tab ?? "")"]) { $1 })
                #expect(page.status == status, "\(path) \(fields)")
                #expect(page.text.contains("<p id=\"message\" role=\"alert\">"), "\(path): the page with its message")
                #expect(page.text.contains(message), "\(path) \(fields)")
                #expect(Self.titles(page) == ["Milk"], "\(path): nothing changed")
                let json = try await browser.post(path, fields, json: true)
                #expect(json.status == status)
                #expect(json.text.contains("\"ok\":false"))
            }
        }
    }

    @Test func eachTabUndoesOnlyItsOwnWork() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let first = TestBrowser(client)
            try await first.get("/lists")
            let firstTab = try #require(first.tab)
            try await first.post("/lists/1/add", ["title": "Shared"])
            let shared = try Self.reference(of: "Shared", in: try await first.get("/lists?tab=\(firstTab)"))
            // A second tab of the same session: same cookie and token, its own tab id.
            try await first.get("/lists?tab=new")
            let secondTab = try #require(first.tab)
            #expect(firstTab != secondTab)
            #expect(try await first.post("/lists/\(shared)/add", ["title": "From the second", "tab": secondTab]).status == .seeOther)
            #expect(try await first.post("/lists/1/add", ["title": "From the first", "tab": firstTab]).status == .seeOther)
            let undone = try await first.post("/undo", ["tab": firstTab], json: true)
            #expect(undone.status == .ok)
            #expect(undone.text.contains("\"redo\":\"Redo Add Item “From the first”\""))
            #expect(Self.titles(try await first.get("/lists?tab=\(secondTab)")) == ["Shared"])
            #expect(Self.titles(try await first.get("/lists/\(shared)?tab=\(secondTab)")) == ["From the second"])
            // The second tab's history is its own.
            let page = try await first.get("/lists?tab=\(secondTab)")
            #expect(page.text.contains(">Undo Add Item “From the second”</button>"))
            let nothing = try await first.post("/redo", ["tab": secondTab], json: true)
            #expect(nothing.status == .conflict)
        }
    }

    @Test func anUndoAfterAnotherTabChangedTheSameListIsRefusedThenKeepsTheirWork() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let firstTab = try #require(browser.tab)
            try await browser.post("/lists/1/add", ["title": "Mine", "tab": firstTab])
            try await browser.get("/lists?tab=new")
            let secondTab = try #require(browser.tab)
            try await browser.post("/lists/1/add", ["title": "Theirs", "tab": secondTab])
            // Undoing the add would change the list the other tab changed since: refused.
            let refused = try await browser.post("/undo", ["tab": firstTab, "back": "/lists?tab=\(firstTab)"])
            #expect(refused.status == .conflict)
            #expect(Self.titles(refused) == ["Mine", "Theirs"])
            // Asked again, on fresh data, the undo takes back this tab's item only.
            let again = try await browser.post("/undo", ["tab": firstTab], json: true)
            #expect(again.status == .ok)
            #expect(Self.titles(try await browser.get("/lists?tab=\(secondTab)")) == ["Theirs"])
        }
    }

    @Test func anUndoThatWouldOverwriteAnotherTabIsRefusedAndStaysUndoable() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let firstTab = try #require(browser.tab)
            try await browser.post("/lists/1/add", ["title": "Milk", "tab": firstTab])
            let milk = try Self.reference(of: "Milk", in: try await browser.get("/lists?tab=\(firstTab)"))
            try await browser.post("/lists/1/items/\(milk)/rename", ["title": "Oat milk", "tab": firstTab])
            try await browser.get("/lists?tab=new")
            let secondTab = try #require(browser.tab)
            try await browser.post("/lists/1/items/\(milk)/rename", ["title": "Soy milk", "tab": secondTab])
            let refused = try await browser.post("/undo", ["tab": firstTab, "back": "/lists?tab=\(firstTab)"])
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("another editor changed the same data"))
            #expect(Self.titles(refused) == ["Soy milk"])
            #expect(refused.text.contains(">Undo Rename “Milk”</button>"))
        }
    }

    @Test func theScriptGetsJSONWithTheUndoLabels() async throws {
        let harness = try await WebAppHarness()
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let added = try await browser.post("/lists/1/add", ["title": "Milk"], json: true)
            #expect(added.status == .ok)
            #expect(added.headers[.contentType] == "application/json")
            #expect(added.text.contains("\"ok\":true"))
            #expect(added.text.contains("\"undo\":\"Undo Add Item “Milk”\""))
        }
    }

    @Test func aBusyStoreSaysSoAndChangesNothing() async throws {
        let harness = try await WebAppHarness(timeout: 0.2)
        let storeURL = harness.store.url
        try await harness.test { client in
            let browser = TestBrowser(client)
            try await browser.get("/lists")
            let holder = try RawSQLiteConnection(storeURL)
            try holder.execute("BEGIN IMMEDIATE")
            let busy = try await browser.post("/lists/1/add", ["title": "Milk", "back": "/lists?tab=\(browser.tab ?? "")"])
            try holder.execute("ROLLBACK")
            holder.close()
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.text.contains("The store is busy"))
            #expect(Self.titles(try await browser.get("/lists?tab=\(browser.tab ?? "")")) == [])
            #expect(try await browser.post("/lists/1/add", ["title": "Milk"]).status == .seeOther)
        }
    }
}
