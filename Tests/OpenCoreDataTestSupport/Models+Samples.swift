import Foundation
import OpenCoreData

extension Models {
    /// One entity, `Sample`, with an attribute of every comparable type (all optional, no
    /// validation rules or constraints), a `key` naming each object, a `group` to partition
    /// them, and a to-one `parent` with its inverse `children`: for fetch and predicate tests.
    package static func samples() -> ManagedObjectModel {
        let sample = EntityDescription(name: "Sample", properties: [
            AttributeDescription(name: "key", type: .string),
            AttributeDescription(name: "group", type: .string),
            AttributeDescription(name: "int16", type: .integer16),
            AttributeDescription(name: "int32", type: .integer32),
            AttributeDescription(name: "int64", type: .integer64),
            AttributeDescription(name: "decimal", type: .decimal),
            AttributeDescription(name: "double", type: .double),
            AttributeDescription(name: "float", type: .float),
            AttributeDescription(name: "string", type: .string),
            AttributeDescription(name: "flag", type: .boolean),
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "data", type: .binaryData),
            AttributeDescription(name: "uuid", type: .uuid),
            AttributeDescription(name: "uri", type: .uri),
        ])
        let parent = RelationshipDescription(name: "parent", destination: sample, deleteRule: .nullify)
        let children = RelationshipDescription(name: "children", destination: sample, toMany: true, deleteRule: .nullify)
        parent.setInverse(children)
        sample.properties += [parent, children]
        return ManagedObjectModel(entities: [sample])
    }
}
