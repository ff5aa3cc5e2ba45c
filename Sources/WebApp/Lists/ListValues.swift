import ListsKit

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
struct ListRowValues {
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
