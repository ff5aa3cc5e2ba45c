import Hummingbird
import Mustache

/// `/`: the two apps, one link each.
struct HomeRoutes {
    let app: WebApp

    func register(on router: Router<WebRequestContext>) {
        router.get("/") { request, context -> Response in
            let (browser, tab) = try await app.pageTab(request, context)
            return try page(try PagePlace(request, tab: tab), browser: browser, tab: tab)
        }
    }

    /// The home page, whatever `place` names (the page of last resort).
    func page(_ place: PagePlace, browser: BrowserSession, tab: Tab) throws -> Response {
        let chrome = app.chrome(title: "Home", app: "home", place: place, browser: browser, tab: tab)
        return try app.pages.page("home", HomeValues(chrome: chrome, form: try app.pages.form(chrome)), status: place.status)
    }
}

struct HomeValues {
    let chrome: PageChrome
    let form: FormValues
}

extension HomeValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": self.chrome
        case "form": self.form
        default: nil
        }
    }
}
