import Mustache

/// The hidden fields every form of a page carries (`Templates/form-fields.mustache`): the
/// tab whose context the action runs in, the session's CSRF token, and the page to come
/// back to.
struct FormValues: Sendable {
    let tab: String
    let csrf: String
    let back: String

    init(_ chrome: PageChrome) {
        tab = chrome.tab
        csrf = chrome.csrf
        back = chrome.back
    }

    init(tab: String, csrf: String, back: String) {
        self.tab = tab
        self.csrf = csrf
        self.back = back
    }
}

extension FormValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "tab": self.tab
        case "csrf": self.csrf
        case "back": self.back
        default: nil
        }
    }
}
