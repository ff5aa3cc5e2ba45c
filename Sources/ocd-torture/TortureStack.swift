import Foundation
import OpenCoreData

/// A coordinator with the SQLite store at `path` (opened with `options`) and one
/// private-queue context.
struct TortureStack {
    let coordinator: PersistentStoreCoordinator
    let context: ManagedObjectContext

    init(path: String, model: ManagedObjectModel = TortureModel.make(), options: [String: any Sendable]? = nil) throws {
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: path), options: options)
        context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
    }

    /// Objects of `entityName` matching `format` (all of them without one).
    func fetch(_ entityName: String, _ format: String? = nil, _ arguments: Any?...) throws -> [ManagedObject] {
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        if let format { request.predicate = try CDPredicate(format: format, argumentArray: arguments) }
        return try context.fetch(request)
    }

    func insert(_ entityName: String, _ values: [String: Any?]) -> ManagedObject {
        let object = EntityDescription.insertNewObject(forEntityName: entityName, into: context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }
}

extension TortureStack {
    /// Inserts a tree of `group`: a root titled `title` with `fanout` children per level,
    /// `depth` levels below it; returns how many items it inserted (not saved).
    @discardableResult
    func insertTree(title: String, group: String, fanout: Int, depth: Int) -> Int {
        let root = insert("Item", ["title": title, "group": group])
        var level = [root]
        var count = 1
        for depthIndex in 0..<depth {
            var next: [ManagedObject] = []
            for parent in level {
                for index in 0..<fanout {
                    next.append(insert("Item", ["title": "\(title)-\(depthIndex)-\(index)", "group": group, "parent": parent]))
                }
            }
            count += next.count
            level = next
        }
        return count
    }
}
