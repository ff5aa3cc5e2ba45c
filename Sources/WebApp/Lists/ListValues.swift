import ListsKit
import Mustache

/// A list page's values (`Templates/list.mustache`).
struct ListPageValues {
    let chrome: PageChrome
    let form: FormValues
    /// The list's reference, for its forms' actions and its event stream.
    let ref: String
    let title: String
    /// The lists above this one, from the root; empty on the root list.
    let crumbs: [Crumb]
    /// The rows' HTML, rendered by `list-row`.
    let rows: String
    let isEmpty: Bool

    struct Crumb {
        let title: String
        let href: String
    }
}

/// One row's values (`Templates/list-row.mustache`): the item, its place, and the hidden
/// fields of its forms.
struct ListRowValues: Hashable, Sendable {
    let ref: String
    /// The list the row is shown in, for its forms' actions.
    let list: String
    let title: String
    let count: Int
    /// The index "move up" sends.
    let up: Int
    /// False on the first row.
    let canMoveUp: Bool
    /// The index "move down" sends.
    let down: Int
    let form: FormValues

    init(_ row: ItemRow, list: String, form: FormValues) {
        ref = row.reference.description
        self.list = list
        title = row.title
        count = row.childCount
        up = max(0, row.order - 1)
        canMoveUp = row.order > 0
        down = row.order + 1
        self.form = form
    }
}

extension ListPageValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": self.chrome
        case "form": self.form
        case "ref": self.ref
        case "title": self.title
        case "crumbs": self.crumbs
        case "rows": self.rows
        case "isEmpty": self.isEmpty
        default: nil
        }
    }
}

extension ListPageValues.Crumb: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "title": self.title
        case "href": self.href
        default: nil
        }
    }
}

extension ListRowValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "ref": self.ref
        case "list": self.list
        case "title": self.title
        case "count": self.count
        case "up": self.up
        case "canMoveUp": self.canMoveUp
        case "down": self.down
        case "form": self.form
        default: nil
        }
    }
}
