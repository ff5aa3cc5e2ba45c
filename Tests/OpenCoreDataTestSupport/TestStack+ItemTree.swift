import OpenCoreData

extension TestStack {
    /// An `Item` tree — root ← child ← grandchild — and an unrelated "other" item, inserted
    /// (not saved) into a nested-list model's context.
    package func insertItemTree() -> (root: ManagedObject, child: ManagedObject, grandchild: ManagedObject, other: ManagedObject) {
        let root = insert("Item", ["title": "root"])
        let child = insert("Item", ["title": "child", "parent": root])
        let grandchild = insert("Item", ["title": "grandchild", "parent": child])
        let other = insert("Item", ["title": "other"])
        return (root, child, grandchild, other)
    }
}
