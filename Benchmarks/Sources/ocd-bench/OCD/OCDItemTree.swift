import OpenCoreData

/// W7's nested list as `Item` managed objects.
enum OCDItemTree {
    static let entityName = "Item"

    /// Inserts every node of `ItemTree`, wiring `parent` (and so `children`); not saved.
    static func insert(into context: ManagedObjectContext) {
        var objects: [Int64: ManagedObject] = [:]
        for node in ItemTree.nodes() {
            let object = EntityDescription.insertNewObject(forEntityName: entityName, into: context)
            object.setValue(node.title, forKey: "title")
            object.setValue(node.order, forKey: "order")
            if let parentPK = node.parentPK { object.setValue(objects[parentPK], forKey: "parent") }
            objects[node.pk] = object
        }
    }
}
