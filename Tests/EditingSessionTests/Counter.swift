import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport

/// A named counter: the smallest thing two editors can both change.
final class Counter: ManagedObject {
    @Managed var name: String
    @Managed var value: Int64
}

extension Counter {
    /// A model with one `Counter` entity whose name must not be empty.
    static func model() -> ManagedObjectModel {
        ManagedObjectClasses.register(Counter.self)
        let name = AttributeDescription(name: "name", type: .string, isOptional: false, defaultValue: "")
        name.minLength = 1
        return ManagedObjectModel(entities: [
            EntityDescription(name: "Counter", managedObjectClassName: "Counter", properties: [
                name,
                AttributeDescription(name: "value", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            ]),
        ])
    }

    /// A session over a private-queue context of a new coordinator on `url` (or in memory).
    static func session(_ kind: StoreKind, at url: URL) throws -> EditingSession {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: kind.type, at: kind == .sqlite ? url : nil)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return EditingSession(context: context)
    }
}

extension EditingSession {
    /// Inserts a counter as the action “Add “name””; returns its reference.
    func addCounter(_ name: String, value: Int64 = 0) throws -> Reference<Counter>? {
        try perform({ context in
            let counter = Counter(context: context)
            counter.name = name
            counter.value = value
            return counter
        }, named: { "Add “\($0.name)”" }, saved: { reference(to: $0) })
    }

    /// Adds `delta` to the counter, reading its value first, as the action “Count”.
    func count(_ reference: Reference<Counter>, by delta: Int64) throws {
        try perform("Count") { _ in
            let counter = try object(reference)
            counter.value += delta
        }
    }

    /// The counter's value and name as the store has them now, read through `other`.
    func value(of reference: Reference<Counter>) throws -> Int64 {
        try read { _ in try object(reference).value }
    }
}
