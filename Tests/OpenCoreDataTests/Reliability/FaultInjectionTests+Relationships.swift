import Foundation
import Testing
@testable import OpenCoreData

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
        let (loaded, faultError, saved) = try reopened.context.performAndWait {
            let note = try #require(try reopened.fetch("Note").first)
            FaultVFS.arm(nth: 1, mode: .persistent)
            let loaded = note.mutableSetValue(forKey: "tags").count
            FaultVFS.disarm()
            let faultError = reopened.context.lastFaultError
            note.mutableSetValue(forKey: "tags").add(reopened.insert("Tag", ["name": "d"]))
            // Either outcome is sound: a save that refuses (typed), or one that keeps a, b, c.
            let saved: Bool
            do {
                try reopened.context.save()
                saved = true
            } catch is CoreDataError {
                saved = false
            }
            return (loaded, faultError, saved)
        }
        print("FaultInjectionTests.manyToMany: \(FaultVFS.faults) faults; the relationship read \(loaded) members; lastFaultError: \(faultError.map(\.description) ?? "none")")
        let check = try stack.reopened()
        let stored = try check.context.performAndWait {
            let note = try #require(try check.fetch("Note").first)
            return note.mutableSetValue(forKey: "tags").objects.compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
        withKnownIssue("""
            A to-many relationship whose load failed (an I/O error) is cached as empty; adding a \
            member and saving then rewrites the join table with that member only, deleting the \
            stored memberships without an error (ManagedObject.relatedObjectIDs caches the empty \
            result of ManagedObjectContext.loadRelatedIDs)
            """) {
            #expect(stored == (saved ? ["a", "b", "c", "d"] : ["a", "b", "c"]), "the tags loaded as \(loaded) after \(faultError.map(\.description) ?? "no error")")
        }
    }
}
