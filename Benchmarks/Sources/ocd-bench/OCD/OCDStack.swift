import Foundation
import OpenCoreData

/// A coordinator with the SQLite store at `path` and one private-queue context.
final class OCDStack {
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext

    init(model: ManagedObjectModel, path: String) throws {
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        _ = try coordinator.addPersistentStore(type: .sqlite, configuration: nil, at: URL(fileURLWithPath: path), options: nil)
        context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
    }
}
