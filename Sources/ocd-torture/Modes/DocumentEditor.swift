import Foundation
import OpenCoreData

/// `document-editor`: the second editor of a `ManagedDocument` in the two-process
/// document test. The parent made the document at `--store` with one `Item` titled
/// "shared" (group "none") and edits it too; this process sees the parent's saves only
/// through remote change notifications and the history merge.
///
/// Lines: `opened`; `saw-parent TITLES` once the held item shows the parent's edit
/// (without a fetch: only a merge refreshes it) and a fetch lists TITLES (sorted, comma
/// separated); `saved-child` after saving its own edit and insert; `saved-conflict` after
/// saving an edit of the same item the parent edits unsaved; `saw-final TITLE/GROUP` when
/// the parent's last save has reached the held item; `done`.
struct DocumentEditor {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    /// The item shared with the parent, kept registered (used on the main queue only).
    final class Held: @unchecked Sendable {
        var item: ManagedObject?
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Runs the script on Swift concurrency while the main queue (the document's context
    /// and completions) is driven by `dispatchMain()`; exits when done.
    func run() -> Never {
        let arguments = arguments
        Task {
            do {
                try await Self.script(arguments)
                emit("done")
                exit(0)
            } catch {
                emit("error \(error)")
                warn("ocd-torture document-editor: \(error)")
                exit(1)
            }
        }
        dispatchMain()
    }

    static func script(_ arguments: TortureArguments) async throws {
        let watchdog = Watchdog(limit: arguments.seconds)
        let document = ManagedDocument(fileURL: URL(fileURLWithPath: arguments.store), managedObjectModel: TortureModel.make())
        document.autosaveDelay = 0
        guard await document.open() else { throw Failure(description: "cannot open \(arguments.store)") }
        let context = document.managedObjectContext
        let held = Held()
        try await context.perform {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.predicate = try CDPredicate(format: "title == %@", argumentArray: ["shared"])
            held.item = try context.fetch(request).first
            guard held.item != nil else { throw Failure(description: "no shared item") }
        }
        emit("opened")

        try await waitUntil("the parent's edit", watchdog) { try await value(held, "title", context) == "edited by parent" }
        let titles = try await context.perform {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
        emit("saw-parent \(titles.joined(separator: ","))")

        try await context.perform {
            held.item?.setValue("child", forKey: "group")
            EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("from child", forKey: "title")
        }
        guard await document.save(to: document.fileURL, for: .forOverwriting) else { throw Failure(description: "save failed: \(document.documentState)") }
        emit("saved-child")

        try await context.perform {
            held.item?.setValue("child title", forKey: "title")
            held.item?.setValue("child 2", forKey: "group")
        }
        guard await document.save(to: document.fileURL, for: .forOverwriting) else { throw Failure(description: "conflict save failed: \(document.documentState)") }
        emit("saved-conflict")

        try await waitUntil("the parent's last save", watchdog) { try await value(held, "title", context) == "parent title" }
        emit("saw-final \(try await value(held, "title", context) ?? "-")/\(try await value(held, "group", context) ?? "-")")
        _ = await document.close()
    }

    /// A string attribute of the held item, read on the context's queue.
    static func value(_ held: Held, _ key: String, _ context: ManagedObjectContext) async throws -> String? {
        try await context.perform { held.item?.value(forKey: key) as? String }
    }

    static func waitUntil(_ what: String, _ watchdog: Watchdog, _ condition: () async throws -> Bool) async throws {
        while try await !condition() {
            if watchdog.shouldStop { throw Failure(description: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
