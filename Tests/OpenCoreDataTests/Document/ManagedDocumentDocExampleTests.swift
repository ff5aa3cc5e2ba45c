import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// docs/managed-document.md's example, run as written there.
@Suite struct ManagedDocumentDocExampleTests {
    @Test func theDocMatchesThisTest() {
        #expect(DocExample.mismatch(doc: "managed-document.md", name: "document") == nil)
    }

    @Test func theExampleRuns() async throws {
        let model = Models.notes()
        let temporary = TemporaryFolder()
        let folder = temporary.url
        // example: document
        let document = ManagedDocument(fileURL: folder.appendingPathComponent("Trip.notes"), managedObjectModel: model)
        let created = await document.save(to: document.fileURL, for: .forCreating)
        let context = document.managedObjectContext
        try await context.perform {
            let note = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("Pack the tent", forKey: "text")
        }
        let closed = await document.close()
        let reopened = ManagedDocument(fileURL: document.fileURL, managedObjectModel: model)
        let opened = await reopened.open()
        let texts = try await reopened.managedObjectContext.perform {
            try reopened.managedObjectContext.fetch(FetchRequest<ManagedObject>(entityName: "Note")).map { $0.value(forKey: "text") as? String }
        }
        // created, closed and opened are true; texts == ["Pack the tent"]
        // end example
        #expect(created && closed && opened)
        #expect(texts == ["Pack the tent"])
    }
}
