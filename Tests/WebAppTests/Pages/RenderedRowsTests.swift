import EditingSession
import ListsKit
import Synchronization
import Testing
@testable import WebApp

/// Rows rendered once are found again by their values, never stale, and the cache stays
/// within its size.
@Suite struct RenderedRowsTests {
    struct Row: Hashable, Sendable {
        let title: String
    }

    /// Counts how often a render runs.
    final class Renders: Sendable {
        private let count = Mutex(0)
        var total: Int { count.withLock { $0 } }
        func render(_ html: String) -> String {
            count.withLock { $0 += 1 }
            return html
        }
    }

    @Test func aRowIsRenderedOnceForTheSameValuesAndAgainForOthers() throws {
        let cache = RenderedRows(capacity: 10)
        let renders = Renders()
        #expect(try cache.html("row", Row(title: "Milk")) { renders.render("<li>Milk</li>") } == "<li>Milk</li>")
        #expect(try cache.html("row", Row(title: "Milk")) { renders.render("other") } == "<li>Milk</li>")
        #expect(renders.total == 1)
        #expect(try cache.html("row", Row(title: "Bread")) { renders.render("<li>Bread</li>") } == "<li>Bread</li>")
        #expect(try cache.html("other-row", Row(title: "Milk")) { renders.render("<p>Milk</p>") } == "<p>Milk</p>", "the template is part of the key")
        #expect(renders.total == 3)
    }

    @Test func aFailedRenderIsNotKept() throws {
        let cache = RenderedRows(capacity: 10)
        #expect(throws: WebError.self) {
            try cache.html("row", Row(title: "Milk")) { () throws(WebError) -> String in throw WebError.notFound() }
        }
        #expect(cache.count == 0)
        #expect(try cache.html("row", Row(title: "Milk")) { "<li>Milk</li>" } == "<li>Milk</li>")
    }

    @Test func theCacheStaysWithinItsCapacity() throws {
        let cache = RenderedRows(capacity: 8)
        for number in 0..<100 {
            _ = try cache.html("row", Row(title: "Item \(number)")) { "<li>\(number)</li>" }
            #expect(cache.count <= 8)
        }
    }

    @Test func aPagesRowIsTheTemplatesRowWithTheSameValues() async throws {
        let pages = try await Pages.load()
        let form = try pages.form(tab: "t1", csrf: "c0ffee", back: "/lists?tab=t1")
        let milk = ListRowValues(ItemRow(reference: try #require(Reference(primaryKey: 7)), title: "Milk", order: 1, childCount: 2), list: "1", form: form)
        let renamed = ListRowValues(ItemRow(reference: try #require(Reference(primaryKey: 7)), title: "Oat milk", order: 1, childCount: 2), list: "1", form: form)
        for _ in 0..<2 {
            #expect(try pages.renderRow("list-row", milk) == pages.render("list-row", milk))
            #expect(try pages.renderRow("list-row", renamed) == pages.render("list-row", renamed))
        }
        #expect(try pages.renderRow("list-row", renamed).contains(">Oat milk</a>"))
    }
}
