import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

final class TodoTask: ManagedObject {
    @Managed var title: String
    @Managed var order: Int64
    @Managed var parent: TodoTask?
    @Managed var children: Set<TodoTask>
}

final class Thing: ManagedObject {
    @Managed var name: String?
    @Managed var small: Int16?
    @Managed var flag: Bool?
    @Managed var date: Date?
    @Managed var uuid: UUID?
}

@Suite struct TypedSubclassTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectClasses.register(TodoTask.self)
        let model = Models.nestedList()
        model.entities[0].managedObjectClassName = "TodoTask"
        return model
    }

    @Test func propertiesReadAndWriteThroughTheModel() throws {
        let stack = try TestStack(model: Self.model())
        try stack.context.performAndWait {
            let root = TodoTask(context: stack.context)
            root.title = "root"
            let child = TodoTask(context: stack.context)
            child.title = "child"
            child.order = 3
            child.parent = root
            #expect(root.children == [child])
            #expect(child.value(forKey: "order") as? Int64 == 3)
            root.children = []
            #expect(child.parent == nil)
            child.parent = root
            try stack.context.save()
            stack.context.reset()
            let fetched = try stack.context.fetch(TodoTask.fetchRequest() as FetchRequest<TodoTask>)
            #expect(fetched.count == 2)
            let loadedChild = try #require(fetched.first { $0.title == "child" })
            #expect(loadedChild.parent?.title == "root")
            #expect(loadedChild.order == 3)
        }
    }

    @Test func keyPathsMapToPropertyNames() {
        #expect(ManagedObject.propertyName(for: \TodoTask.title) == "title")
        #expect(ManagedObject.propertyName(for: \TodoTask.parent) == "parent")
        #expect(ManagedObject.propertyName(for: \TodoTask.children) == "children")
        #expect(ManagedObject.propertyName(for: \Thing.uuid) == "uuid")
        #expect(ManagedObject.propertyName(for: \TodoTask.objectID) == nil)
    }

    @Test func optionalPropertiesReadNil() throws {
        ManagedObjectClasses.register(Thing.self)
        let model = Models.allTypes()
        model.entities[0].managedObjectClassName = "Thing"
        let stack = try TestStack(model: model, kind: .inMemory)
        stack.context.performAndWait {
            let thing = Thing(context: stack.context)
            #expect(thing.name == nil && thing.small == nil && thing.flag == nil)
            thing.small = 7
            thing.flag = true
            #expect(thing.small == 7 && thing.flag == true)
            thing.small = nil
            #expect(thing.value(forKey: "small") == nil)
        }
    }

    @Test func aFetchOfTheWrongClassIsATypedError() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "plain"])
            let error = try #require(throws: CoreDataError.self) { try stack.context.fetch(FetchRequest<TodoTask>(entityName: "Item")) }
            #expect(error.code == .invalidFetchRequest)
        }
    }
}
