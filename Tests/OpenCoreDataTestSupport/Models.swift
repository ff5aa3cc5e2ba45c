import Foundation
import OpenCoreData

/// Models built in Swift for the tests.
package enum Models {
    /// objc.io's nested list: items with a title, an order among siblings, a parent and
    /// children (cascade).
    package static func nestedList() -> ManagedObjectModel {
        let item = EntityDescription(name: "Item", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "order", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item, deleteRule: .nullify)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]
        return ManagedObjectModel(entities: [item])
    }

    /// Every attribute type, with validation settings, in one entity.
    package static func allTypes() -> ManagedObjectModel {
        let name = AttributeDescription(name: "name", type: .string, isOptional: false)
        name.minLength = 2
        name.maxLength = 10
        let code = AttributeDescription(name: "code", type: .string)
        code.regularExpression = "[A-Z]{3}"
        let small = AttributeDescription(name: "small", type: .integer16)
        small.minValue = -100
        small.maxValue = 100
        let entity = EntityDescription(name: "Thing", properties: [
            name, code, small,
            AttributeDescription(name: "int32", type: .integer32),
            AttributeDescription(name: "int64", type: .integer64),
            AttributeDescription(name: "decimal", type: .decimal),
            AttributeDescription(name: "double", type: .double),
            AttributeDescription(name: "float", type: .float),
            AttributeDescription(name: "flag", type: .boolean),
            AttributeDescription(name: "date", type: .date),
            AttributeDescription(name: "data", type: .binaryData),
            AttributeDescription(name: "uuid", type: .uuid),
            AttributeDescription(name: "url", type: .uri),
            AttributeDescription(name: "scratch", type: .string, isTransient: true),
        ])
        entity.uniquenessConstraints = [["code"]]
        return ManagedObjectModel(entities: [entity])
    }

    /// Notes and tags (many-to-many), folders with ordered notes, and every delete rule.
    package static func notes() -> ManagedObjectModel {
        let note = EntityDescription(name: "Note", properties: [AttributeDescription(name: "text", type: .string)])
        let tag = EntityDescription(name: "Tag", properties: [AttributeDescription(name: "name", type: .string)])
        let folder = EntityDescription(name: "Folder", properties: [AttributeDescription(name: "name", type: .string)])
        let tags = RelationshipDescription(name: "tags", destination: tag, toMany: true)
        let notes = RelationshipDescription(name: "notes", destination: note, toMany: true)
        tags.setInverse(notes)
        let folderNotes = RelationshipDescription(name: "notes", destination: note, toMany: true, isOrdered: true, deleteRule: .deny)
        let noteFolder = RelationshipDescription(name: "folder", destination: folder, deleteRule: .nullify)
        folderNotes.setInverse(noteFolder)
        let pinned = RelationshipDescription(name: "pinned", destination: note, deleteRule: .noAction)
        note.properties += [tags, noteFolder]
        tag.properties += [notes]
        folder.properties += [folderNotes, pinned]
        return ManagedObjectModel(entities: [note, tag, folder])
    }

    /// Employee directory style inheritance: abstract Person, Employee and Contractor.
    package static func people() -> ManagedObjectModel {
        let person = EntityDescription(name: "Person", properties: [AttributeDescription(name: "name", type: .string)])
        person.isAbstract = true
        let employee = EntityDescription(name: "Employee", properties: [AttributeDescription(name: "salary", type: .integer32)])
        let contractor = EntityDescription(name: "Contractor", properties: [AttributeDescription(name: "rate", type: .double)])
        let department = EntityDescription(name: "Department", properties: [AttributeDescription(name: "name", type: .string)])
        person.subentities = [employee, contractor]
        let members = RelationshipDescription(name: "members", destination: person, toMany: true)
        let memberOf = RelationshipDescription(name: "department", destination: department)
        members.setInverse(memberOf)
        department.properties += [members]
        person.properties += [memberOf]
        return ManagedObjectModel(entities: [person, employee, contractor, department])
    }
}
