import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

extension FaultInjectionTests {
    /// A many-to-many relationship whose load fails reads as empty (the accessor cannot
    /// throw; `lastFaultError` has the error). Changing it afterwards must not save that
    /// empty list over the stored one: the save should fail, or reload the members.
    @Test func aManyToManyWhoseLoadFailedIsNotSavedAsEmpty() throws {
        let folder = try FaultFolder()
        let stack = try TestStack(model: Models.notes(), folder: folder.folder)
        try stack.context.performAndWait {
            let note = stack.insert("Note", ["text": "note"])
            for name in ["a", "b", "c"] { note.mutableSetValue(forKey: "tags").add(stack.insert("Tag", ["name": name])) }
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        let (loaded, faultError, refusal, retried) = try reopened.context.performAndWait {
            let note = try #require(try reopened.fetch("Note").first)
            FaultVFS.arm(nth: 1, mode: .persistent)
            let loaded = note.mutableSetValue(forKey: "tags").count
            FaultVFS.disarm()
            let faultError = reopened.context.lastFaultError
            note.mutableSetValue(forKey: "tags").add(reopened.insert("Tag", ["name": "d"]))
            let refusal = #expect(throws: CoreDataError.self) { try reopened.context.save() }
            // Refreshed, the relationship reads its stored members and the change saves.
            reopened.context.refresh(note, mergeChanges: false)
            let d = try #require(try reopened.fetch("Tag", "name == 'd'").first)
            note.mutableSetValue(forKey: "tags").add(d)
            try reopened.context.save()
            return (loaded, faultError, refusal, note.mutableSetValue(forKey: "tags").count)
        }
        print("FaultInjectionTests.manyToMany: \(FaultVFS.faults) faults; the relationship read \(loaded) members; lastFaultError: \(faultError.map(\.description) ?? "none")")
        #expect(loaded == 0 && faultError != nil)
        #expect(refusal?.key == "tags" && refusal?.message.contains("could not be read") == true)
        #expect(retried == 4)
        let check = try stack.reopened()
        let stored = try check.context.performAndWait {
            let note = try #require(try check.fetch("Note").first)
            return note.mutableSetValue(forKey: "tags").objects.compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
        #expect(stored == ["a", "b", "c", "d"])
    }

    /// A cascade whose members could not be read would delete the owner and leave its
    /// children pointing at a deleted row: the save refuses instead.
    @Test func aCascadeWhoseMembersCouldNotBeReadIsNotSaved() throws {
        let folder = try FaultFolder()
        let stack = try TestStack(model: Models.nestedList(), folder: folder.folder)
        try stack.context.performAndWait {
            let list = stack.insert("Item", ["title": "list"])
            for title in ["a", "b"] { _ = stack.insert("Item", ["title": title, "parent": list]) }
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let list = try #require(try reopened.fetch("Item", "title == 'list'").first)
            _ = list.value(forKey: "title")
            FaultVFS.arm(nth: 1, mode: .persistent)
            reopened.context.delete(list)
            reopened.context.processPendingChanges()
            FaultVFS.disarm()
            let error = #expect(throws: CoreDataError.self) { try reopened.context.save() }
            #expect(error?.key == "children")
        }
        let check = try stack.reopened()
        #expect(try check.context.performAndWait { try check.fetch("Item").count } == 3)
    }
}
