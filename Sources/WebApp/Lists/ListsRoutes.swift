import EditingSession
import Hummingbird
import ListsKit
import OpenCoreData

/// The nested lists: `/lists` (the root list) and `/lists/{ref}` (a sub-list), their
/// event streams, and the forms that add, rename, reorder and delete items.
struct ListsRoutes {
    let app: WebApp

    func register(on router: Router<WebRequestContext>) {
        router.get("/lists") { request, context -> Response in
            let (browser, tab) = try await app.pageTab(request, context)
            return try await page(of: tab.lists.root, try PagePlace(request, tab: tab), browser: browser, tab: tab)
        }
        router.get("/lists/{list}") { request, context -> Response in
            let (browser, tab) = try await app.pageTab(request, context)
            return try await page(of: try Self.reference(context, "list"), try PagePlace(request, tab: tab), browser: browser, tab: tab)
        }
        router.get("/lists/{list}/events") { request, context -> Response in
            let (browser, tab) = try await app.streamTab(request, context)
            return try await events(of: try Self.reference(context, "list"), request: request, browser: browser, tab: tab)
        }
        router.post("/lists/{list}/add") { request, context in
            let list = try Self.reference(context, "list")
            return try await app.act(request, context, fallback: "/lists/\(list)") { editor, form in
                _ = try editor.lists.add(form["title"] ?? "", to: list)
            }
        }
        router.post("/lists/{list}/items/{item}/rename") { request, context in
            let (list, item) = (try Self.reference(context, "list"), try Self.reference(context, "item"))
            return try await app.act(request, context, fallback: "/lists/\(list)") { editor, form in
                try editor.lists.rename(item, to: form["title"] ?? "")
            }
        }
        router.post("/lists/{list}/items/{item}/delete") { request, context in
            let (list, item) = (try Self.reference(context, "list"), try Self.reference(context, "item"))
            return try await app.act(request, context, fallback: "/lists/\(list)") { editor, _ in
                try editor.lists.delete(item)
            }
        }
        router.post("/lists/{list}/items/{item}/move") { request, context in
            let (list, item) = (try Self.reference(context, "list"), try Self.reference(context, "item"))
            return try await app.act(request, context, fallback: "/lists/\(list)") { editor, form in
                try editor.lists.move(item, toIndex: try form.integer("to"))
            }
        }
    }

    /// The item the path parameter `name` (`list`, `item`) names.
    static func reference(_ context: WebRequestContext, _ name: String) throws(WebError) -> Reference<Item> {
        try context.reference(name)
    }

    /// The list page `place` names, or nil when it is not a lists page.
    func page(_ place: PagePlace, browser: BrowserSession, tab: Tab) async throws -> Response? {
        let parts = place.path.split(separator: "/")
        guard parts.first == "lists" else { return nil }
        if parts.count == 1 { return try await page(of: tab.lists.root, place, browser: browser, tab: tab) }
        guard parts.count == 2, let list = Reference<Item>(String(parts[1])) else { return nil }
        return try await page(of: list, place, browser: browser, tab: tab)
    }

    /// `list`'s page: its breadcrumb, its rows, the add form, and its live stream.
    func page(of list: Reference<Item>, _ place: PagePlace, browser: BrowserSession, tab: Tab) async throws -> Response {
        let (crumbs, rows) = try await offload { (try tab.lists.breadcrumb(to: list), try tab.lists.rows(in: list)) }
        let isRoot = crumbs.count <= 1
        let title = isRoot ? "Lists" : crumbs.last?.title ?? "List"
        let chrome = app.chrome(title: title, app: "lists", place: place, browser: browser, tab: tab)
        let form = try app.pages.form(chrome)
        let rowsHTML = try rows.map { try app.pages.renderRow("list-row", ListRowValues($0, list: list.description, form: form)) }.joined()
        let values = ListPageValues(
            chrome: chrome, form: form, ref: list.description, title: title,
            crumbs: crumbs.dropLast().enumerated().map { index, crumb in
                ListPageValues.Crumb(title: index == 0 ? "Lists" : crumb.title, href: index == 0 ? "/lists?tab=\(tab.id)" : "/lists/\(crumb.reference)?tab=\(tab.id)")
            },
            rows: rowsHTML, isEmpty: rows.isEmpty
        )
        return try app.pages.page("list", values, status: place.status)
    }

    /// `list`'s event stream: its rows' controller on the tab's view, as live changes.
    func events(of list: Reference<Item>, request: Request, browser: BrowserSession, tab: Tab) async throws -> Response {
        let pages = app.pages
        let form = try pages.form(tab: tab.id, csrf: browser.csrfToken, back: "/lists/\(list)?tab=\(tab.id)")
        return try await EventStream.response(to: request) { continuation in
            try Self.startFeed(of: list, pages: pages, form: form, tab: tab, continuation: continuation)
        }
    }

    /// Starts the live feed of `list`'s rows on `tab`'s view into `continuation`; returns
    /// what stops it. Waits for the view's queue: call it off the cooperative pool.
    static func startFeed(
        of list: Reference<Item>, pages: Pages, form: FormValues, tab: Tab,
        continuation: AsyncStream<ServerSentEvent>.Continuation
    ) throws -> @Sendable () -> Void {
        let controller = try tab.lists.controller(for: list)
        let rendering = LiveRendering<Item>.flat(
            rowID: { item in tab.session.reference(to: item).map { "item-\($0)" } },
            rowHTML: { item in
                guard let row = tab.lists.row(for: item) else { throw EditingSessionError.notFound(entity: "Item", reference: "(unsaved)") }
                return try pages.renderRow("list-row", ListRowValues(row, list: list.description, form: form))
            }
        )
        return try LiveFeed.start(controller, rendering: rendering, tab: tab, continuation: continuation)
    }
}
