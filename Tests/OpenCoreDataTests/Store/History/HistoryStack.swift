import Foundation
import OpenCoreData
import OpenCoreDataTestSupport

/// A coordinator with one SQLite store opened with persistent history tracking (unless
/// told otherwise) and a private-queue context, for the persistent history tests.
struct HistoryStack {
    let folder: TemporaryFolder
    let model: ManagedObjectModel
    let coordinator: PersistentStoreCoordinator
    let store: PersistentStore
    let context: ManagedObjectContext

    var url: URL { folder.file() }

    init(folder: TemporaryFolder = TemporaryFolder(), model: ManagedObjectModel = HistoryStack.model(), tracking: Bool? = true) throws {
        self.folder = folder
        self.model = model
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let options: [String: any Sendable]? = tracking.map { [PersistentHistoryTrackingKey: $0] }
        store = try coordinator.addPersistentStore(type: .sqlite, at: folder.file(), options: options)
        context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
    }

    /// Another coordinator on the same file, as another process would open it.
    func reopened(tracking: Bool? = true) throws -> HistoryStack {
        try HistoryStack(folder: folder, model: model, tracking: tracking)
    }

    /// objc.io's nested list, with `title` marked "Preserve After Deletion".
    static func model() -> ManagedObjectModel {
        let model = Models.nestedList()
        model.entitiesByName["Item"]?.attributesByName["title"]?.preservesValueInHistoryOnDeletion = true
        return model
    }

    /// Inserts items with `titles` and saves; returns their IDs.
    @discardableResult
    func insertAndSave(_ titles: [String], author: String? = nil) throws -> [ManagedObjectID] {
        let context = context
        return try context.performAndWait {
            context.transactionAuthor = author
            let items = titles.map { title in
                let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(title, forKey: "title")
                return item
            }
            try context.save()
            return items.map(\.objectID)
        }
    }

    /// Runs a history request on the stack's context.
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        let context = context
        return try context.performAndWait { try context.execute(request) }
    }

    /// The transactions after `token`, with their changes.
    func history(after token: PersistentHistoryToken? = nil) throws -> [PersistentHistoryTransaction] {
        try execute(.fetchHistory(after: token)).transactions
    }

    /// How many rows `table` of the store file holds, read with plain SQLite.
    func rows(in table: String) throws -> Int {
        Int(try SQLiteInspector(url).strings("SELECT count(*) FROM \(table)").first ?? "") ?? -1
    }
}
