import Foundation
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A typed subclass with an attribute of each common kind, optional ones, a to-one and
/// a to-many relationship: the subject of the `#Predicate` and `SortDescriptor` tests.
final class Errand: ManagedObject {
    @Managed var title: String
    @Managed var note: String?
    @Managed var priority: Int64
    @Managed var estimate: Double
    @Managed var done: Bool
    @Managed var due: Date?
    @Managed var parent: Errand?
    @Managed var steps: Set<Errand>
    @Managed var checklist: [Errand]
    @Managed var listedIn: Errand?

    /// Not `@Managed` properties: they have no Core Data form.
    var kind: String { "errand" }
    var isUrgent: Bool { priority > 3 }
}

enum ErrandModel {
    /// The `Errand` entity, bound to the `Errand` class.
    static func model() -> ManagedObjectModel {
        ManagedObjectClasses.register(Errand.self)
        let errand = EntityDescription(name: "Errand", managedObjectClassName: "Errand", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "note", type: .string),
            AttributeDescription(name: "priority", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "estimate", type: .double, isOptional: false, defaultValue: 0.0),
            AttributeDescription(name: "done", type: .boolean, isOptional: false, defaultValue: false),
            AttributeDescription(name: "due", type: .date),
        ])
        let parent = RelationshipDescription(name: "parent", destination: errand, deleteRule: .nullify)
        let steps = RelationshipDescription(name: "steps", destination: errand, toMany: true, deleteRule: .cascade)
        parent.setInverse(steps)
        let checklist = RelationshipDescription(name: "checklist", destination: errand, toMany: true, isOrdered: true)
        let listedIn = RelationshipDescription(name: "listedIn", destination: errand)
        checklist.setInverse(listedIn)
        errand.properties += [parent, steps, checklist, listedIn]
        return ManagedObjectModel(entities: [errand])
    }

    /// A saved store of five errands: "Shop" (priority 3, note "weekly") with steps
    /// "Milk" (1, done), "Bread" (2) and "Eggs" (5, note "free range"); and "Bank" (4, done).
    static func stack(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: model(), kind: kind)
        try stack.context.performAndWait {
            let shop = errand("Shop", priority: 3, estimate: 1.5, in: stack.context)
            shop.note = "weekly"
            for (title, priority, done) in [("Milk", Int64(1), true), ("Bread", 2, false), ("Eggs", 5, false)] {
                let step = errand(title, priority: priority, estimate: Double(priority) / 4, in: stack.context)
                step.done = done
                step.parent = shop
                if title == "Eggs" { step.note = "free range" }
            }
            errand("Bank", priority: 4, estimate: 0.5, in: stack.context).done = true
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    @discardableResult
    private static func errand(_ title: String, priority: Int64, estimate: Double, in context: ManagedObjectContext) -> Errand {
        let errand = Errand(context: context)
        errand.title = title
        errand.priority = priority
        errand.estimate = estimate
        return errand
    }
}

extension TestStack {
    /// The titles of the errands `request` fetches, sorted unless the request sorts.
    func titles(_ request: FetchRequest<Errand>) throws -> [String] {
        try context.performAndWait {
            let titles = try context.fetch(request).map(\.title)
            return request.sortDescriptors == nil ? titles.sorted() : titles
        }
    }
}
