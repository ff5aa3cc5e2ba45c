import Mustache

/// What every page's header and footer show: its title, which app it belongs to, the
/// tab and token its forms carry, the tab's undo and redo labels, and a message for the
/// user (an error with the page it refused).
struct PageChrome: Sendable {
    let title: String
    /// "lists" or "bugs": which app's link is current.
    let app: String
    let tab: String
    let csrf: String
    /// This page's path with its query, where a form's action sends the browser back to.
    let back: String
    let undo: String?
    let redo: String?
    let message: String?

    var isLists: Bool { app == "lists" }
    var isBugs: Bool { app == "bugs" }
}

extension PageChrome: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "title": self.title
        case "app": self.app
        case "tab": self.tab
        case "csrf": self.csrf
        case "back": self.back
        case "undo": self.undo
        case "redo": self.redo
        case "message": self.message
        case "isLists": self.isLists
        case "isBugs": self.isBugs
        default: nil
        }
    }
}
