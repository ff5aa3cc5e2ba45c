import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// docs/persistent-container.md's example, run as written there.
@Suite struct PersistentContainerDocExampleTests {
    @Test func theDocMatchesThisTest() {
        #expect(DocExample.mismatch(doc: "persistent-container.md", name: "container") == nil)
    }

    @Test func theExampleRuns() async throws {
        let model = Models.notes()
        let temporary = TemporaryFolder()
        let folder = temporary.url
        // example: container
        let container = PersistentContainer(name: "Notes", managedObjectModel: model)
        container.persistentStoreDescriptions[0].url = folder.appendingPathComponent("Notes.sqlite")
        container.loadPersistentStores { description, error in
            if let error { print("Cannot open \(description): \(error)") }
        }
        container.viewContext.automaticallyMergesChangesFromParent = true
        let saved = try await container.performBackgroundTask { context in
            let note = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("Buy milk", forKey: "text")
            try context.save()
            return note.objectID
        }
        let view = container.viewContext
        let text = try await view.perform { try view.existingObject(with: saved).value(forKey: "text") as? String }
        // text == "Buy milk"
        // end example
        #expect(text == "Buy milk")
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Notes.sqlite").path))
    }
}
