import Foundation
import Testing
import OpenCoreData

/// Which store a parameterised test runs on.
package enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, inMemory
    package var type: PersistentStoreType { self == .sqlite ? .sqlite : .inMemory }
    package var testDescription: String { rawValue }
}

/// A unique temporary folder, removed when the value is released.
package final class TemporaryFolder {
    package let url: URL
    package init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    package func file(_ name: String = "store.sqlite") -> URL { url.appendingPathComponent(name) }
}

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

extension TestStack {
    /// An `Item` tree — root ← child ← grandchild — and an unrelated "other" item, inserted
    /// (not saved) into a nested-list model's context.
    package func insertItemTree() -> (root: ManagedObject, child: ManagedObject, grandchild: ManagedObject, other: ManagedObject) {
        let root = insert("Item", ["title": "root"])
        let child = insert("Item", ["title": "child", "parent": root])
        let grandchild = insert("Item", ["title": "grandchild", "parent": child])
        let other = insert("Item", ["title": "other"])
        return (root, child, grandchild, other)
    }
}
