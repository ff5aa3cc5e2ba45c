import Foundation

/// What the `lists` commands print: the JSON documents (see docs/demo-apps.md) and their
/// text form.
enum ListsOutput {
    /// One item of a list: where it is, how to address it for good, and how many sub-items it has.
    struct Row: Encodable, Equatable {
        /// Its 1-based position path from the root, e.g. `2.1`.
        var path: String
        /// Its reference, the same for as long as it lives (`@12` on the command line).
        var reference: Int64
        var title: String
        /// Its 0-based position among its siblings.
        var order: Int64
        var childCount: Int
    }

    /// One step of the way from the root to a list.
    struct Crumb: Encodable, Equatable {
        var path: String
        var reference: Int64
        var title: String
    }

    /// A list: the way to it, then its items in order.
    struct List: Encodable {
        var breadcrumb: [Crumb]
        var items: [Row]
    }

    /// An item and everything below it.
    struct Tree: Encodable {
        var path: String
        var reference: Int64
        var title: String
        var children: [Tree]
    }

    /// What an editing command did: the undo action's name, and the item as it now is
    /// (none after a delete).
    struct Action: Encodable {
        var action: String
        var item: Row?
    }

    // MARK: - Text

    static func list(_ list: List) -> [String] {
        [list.breadcrumb.map(\.title).joined(separator: " › ")]
            + list.items.map { "\(position(of: $0.path)). \($0.title)\(count($0.childCount))" }
    }

    static func tree(_ tree: Tree) -> [String] {
        func lines(_ node: Tree, depth: Int) -> [String] {
            let indent = String(repeating: "   ", count: depth)
            return ["\(indent)\(node.path). \(node.title)\(count(node.children.count))"]
                + node.children.flatMap { lines($0, depth: depth + 1) }
        }
        return [tree.title] + tree.children.flatMap { lines($0, depth: 0) }
    }

    static func action(_ action: Action) -> [String] {
        guard let item = action.item else { return [action.action] }
        return ["\(action.action): \(item.path). \(item.title) (@\(item.reference))"]
    }

    private static func position(of path: String) -> Substring {
        path.split(separator: ".").last ?? Substring(path)
    }

    private static func count(_ children: Int) -> String {
        children == 0 ? "" : " (\(children))"
    }
}
