import Foundation
import OpenCoreData

/// A model, a coordinator with one store, and a main-thread-free private context.
package final class TestStack {
    package let model: ManagedObjectModel
    package let coordinator: PersistentStoreCoordinator
    package let context: ManagedObjectContext
    package let storeURL: URL?
    package let folder: TemporaryFolder

    package init(model: ManagedObjectModel, kind: StoreKind = .sqlite, folder: TemporaryFolder = TemporaryFolder(), file: String = "store.sqlite") throws {
        self.model = model
        self.folder = folder
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        storeURL = kind == .sqlite ? folder.file(file) : nil
        try coordinator.addPersistentStore(type: kind.type, at: storeURL)
        context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
    }

    /// A second stack on the same file, with a fresh coordinator (as another process would).
    package func reopened(model newModel: ManagedObjectModel? = nil) throws -> TestStack {
        try TestStack(model: newModel ?? model, kind: .sqlite, folder: folder)
    }

    /// A new context on the same coordinator.
    package func newContext() -> ManagedObjectContext {
        let other = ManagedObjectContext(concurrencyType: .privateQueue)
        other.persistentStoreCoordinator = coordinator
        return other
    }

    package func insert(_ entityName: String, _ values: [String: Any?] = [:]) -> ManagedObject {
        let object = EntityDescription.insertNewObject(forEntityName: entityName, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    package func fetch(_ entityName: String, _ format: String? = nil, _ arguments: Any?..., sortedBy key: String? = nil) throws -> [ManagedObject] {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        if let format { request.predicate = try CDPredicate(format: format, argumentArray: arguments) }
        if let key { request.sortDescriptors = [CDSortDescriptor(key: key, ascending: true)] }
        return try context.fetch(request)
    }
}
