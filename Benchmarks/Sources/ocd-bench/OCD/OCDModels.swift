import OpenCoreData

/// The benchmark's models, built in code with OpenCoreData's model API.
enum OCDModels {
    /// `Flat`: ten attributes, no relationships, an index on `a1` (table `ZFLAT`).
    static func flat() -> ManagedObjectModel {
        let flat = EntityDescription(name: "Flat", properties: [
            AttributeDescription(name: "a0", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "a1", type: .integer64),
            AttributeDescription(name: "a2", type: .double),
            AttributeDescription(name: "a3", type: .double),
            AttributeDescription(name: "a4", type: .string),
            AttributeDescription(name: "a5", type: .string),
            AttributeDescription(name: "a6", type: .boolean),
            AttributeDescription(name: "a7", type: .date),
            AttributeDescription(name: "a8", type: .binaryData),
            AttributeDescription(name: "a9", type: .string),
        ])
        flat.indexes = [FetchIndexDescription(name: "byA1", elements: [.init(propertyName: "a1")])]
        return ManagedObjectModel(entities: [flat])
    }

    /// `Item`: a nested list; deleting an item cascades to its children (table `ZITEM`).
    static func item() -> ManagedObjectModel {
        let item = EntityDescription(name: "Item", properties: [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "order", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item, toMany: false, deleteRule: .nullify)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]
        return ManagedObjectModel(entities: [item])
    }
}
