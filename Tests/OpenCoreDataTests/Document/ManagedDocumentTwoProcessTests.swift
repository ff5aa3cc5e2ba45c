import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// The same document open in two processes (`ocd-torture document-editor` is the other):
/// each sees the other's saves through remote change notifications and the history
/// merge, and a conflicting edit of one object is resolved by the merge policy
/// (`.mergeByPropertyObjectTrump`: each editor's changed properties win, the other's
/// other properties are kept).
@Suite(.serialized) struct ManagedDocumentTwoProcessTests {
    final class Held: @unchecked Sendable {
        var item: ManagedObject?
    }

    static func value(_ held: Held, _ key: String, _ context: ManagedObjectContext) async throws -> String? {
        try await context.perform { held.item?.value(forKey: key) as? String }
    }

    static func titles(_ context: ManagedObjectContext) async throws -> [String] {
        try await context.perform {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
    }

    /// Waits up to `seconds` for `condition`; whether it became true.
    static func eventually(_ seconds: Double = 5, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try await condition()
    }

    @Test func twoProcessesSeeEachOthersSavesAndResolveAConflictByThePolicy() async throws {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("Shared.doc")
        let document = ManagedDocument(fileURL: url, managedObjectModel: TortureModel.make())
        document.autosaveDelay = 0
        #expect(await document.save(to: url, for: .forCreating))
        let context = document.managedObjectContext
        let held = Held()
        try await context.perform {
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("shared", forKey: "title")
            item.setValue("none", forKey: "group")
            held.item = item
        }
        #expect(await document.save(to: url, for: .forOverwriting))

        let child = try ChildProcess(helper.binary, ["document-editor", "--store", url.path, "--seconds", "20"])
        defer { _ = child.finish(timeout: 5) }
        try #require(child.waitForLine(timeout: 20) { $0 == "opened" || $0.hasPrefix("error") }?.text == "opened", "\(child.standardError)")

        // 1. The parent saves; the child sees it without fetching the item again.
        try await context.perform {
            held.item?.setValue("edited by parent", forKey: "title")
            EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("from parent", forKey: "title")
        }
        #expect(await document.save(to: url, for: .forOverwriting))
        let sawParent = child.waitForLine(timeout: 10) { $0.hasPrefix("saw-parent") || $0.hasPrefix("error") }?.text
        #expect(sawParent == "saw-parent edited by parent,from parent")

        // 2. The parent edits the item's title without saving; meanwhile the child saves an
        //    edit of its group and a new item, then an edit of both its title and group.
        //    Each child save reaches the parent by notification and merge: its held item
        //    and its fetches show the child's values, its own unsaved title is kept.
        try await context.perform { held.item?.setValue("parent title", forKey: "title") }
        try #require(child.waitForLine(timeout: 10) { $0 == "saved-child" || $0.hasPrefix("error") }?.text == "saved-child")
        try #require(child.waitForLine(timeout: 10) { $0 == "saved-conflict" || $0.hasPrefix("error") }?.text == "saved-conflict")
        #expect(try await Self.eventually { try await Self.value(held, "group", context) == "child 2" })
        #expect(try await Self.value(held, "title", context) == "parent title")
        #expect(try await Self.titles(context) == ["from child", "from parent", "parent title"])

        // 3. The parent saves last. Under the default policy (merge by property, this
        //    editor's changes win) its title wins and the child's group stays, whether the
        //    child's save was merged before (the merge keeps unsaved edits) or met as a
        //    conflict at the save (the policy resolves it).
        #expect(await document.save(to: url, for: .forOverwriting))
        #expect(document.documentState == .normal)

        // 4. The child sees the parent's last save.
        let final = child.waitForLine(timeout: 10) { $0.hasPrefix("saw-final") || $0.hasPrefix("error") }?.text
        #expect(final == "saw-final parent title/child 2")
        #expect(child.waitForLine(timeout: 10) { $0 == "done" || $0.hasPrefix("error") }?.text == "done")

        // The store holds both editors' work.
        #expect(await document.close())
        let reader = ManagedDocument(fileURL: url, managedObjectModel: TortureModel.make())
        #expect(await reader.open())
        let readerContext = reader.managedObjectContext
        let stored = try await readerContext.perform {
            try readerContext.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                .map { "\($0.value(forKey: "title") as? String ?? "-")/\($0.value(forKey: "group") as? String ?? "-")" }.sorted()
        }
        #expect(stored == ["from child/-", "from parent/-", "parent title/child 2"])
    }
}
