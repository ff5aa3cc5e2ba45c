/// W7's nested list: a top item holding two subtrees, "A" and "B", of 10,000 items
/// each (1 subtree root, 9 children, 90 grandchildren, 9,900 great-grandchildren).
/// W7 deletes subtree "A" (cascading to its 9,999 descendants).
enum ItemTree {
    struct Node: Sendable {
        /// 1-based position in `nodes`, used as `Z_PK` by the raw engine.
        let pk: Int64
        /// The parent's `pk`, nil for the top item.
        let parentPK: Int64?
        let title: String
        let order: Int64
    }

    static let deletedTitle = "A"
    /// Children per level below a subtree root.
    static let fanOut = [9, 10, 110]
    static var subtreeSize: Int { 1 + fanOut.indices.reduce(0) { $0 + fanOut[...$1].reduce(1, *) } }
    static var totalCount: Int { 1 + 2 * subtreeSize }

    /// Every item, parents before their children.
    static func nodes() -> [Node] {
        var nodes: [Node] = []
        nodes.reserveCapacity(totalCount)
        func add(parent: Int64?, title: String, order: Int64) -> Int64 {
            let pk = Int64(nodes.count + 1)
            nodes.append(Node(pk: pk, parentPK: parent, title: title, order: order))
            return pk
        }
        let top = add(parent: nil, title: "root", order: 0)
        for (subtreeOrder, subtreeTitle) in ["A", "B"].enumerated() {
            var level = [add(parent: top, title: subtreeTitle, order: Int64(subtreeOrder))]
            for fan in fanOut {
                var next: [Int64] = []
                for parent in level {
                    for order in 0..<fan {
                        next.append(add(parent: parent, title: "\(subtreeTitle)-\(nodes.count)", order: Int64(order)))
                    }
                }
                level = next
            }
        }
        return nodes
    }
}
