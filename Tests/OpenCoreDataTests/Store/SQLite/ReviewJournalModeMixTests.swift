import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: two coordinators on one file, opened with the same or different journal
/// modes, see each other's commits as conflicts. (A second coordinator asking for DELETE
/// while a WAL connection is open waits out its timeout, then throws `.storeTimeout`.)
@Suite struct ReviewJournalModeMixTests {
    @Test(arguments: [("WAL", "WAL"), ("DELETE", "WAL"), ("DELETE", "DELETE")])
    func twoCoordinatorsDetectEachOthersWrites(firstMode: String, secondMode: String) throws {
        let folder = TemporaryFolder()
        let model = Models.allTypes()
        let first = try PersistentStoreCoordinator.opening(model, at: folder.file(),
            options: [PersistentStoreOption.sqlitePragmas: ["journal_mode": firstMode]])
        let a = ManagedObjectContext(concurrencyType: .privateQueue)
        a.persistentStoreCoordinator = first
        let held = try a.performAndWait {
            let thing = EntityDescription.insertNewObject(forEntityName: "Thing", into: a)
            thing.setValue("first", forKey: "name")
            try a.save()
            return thing
        }
        let id = held.objectID
        let second = try PersistentStoreCoordinator.opening(model, at: folder.file(),
            options: [PersistentStoreOption.sqlitePragmas: ["journal_mode": secondMode]])
        let b = ManagedObjectContext(concurrencyType: .privateQueue)
        b.persistentStoreCoordinator = second
        try b.performAndWait {
            try b.existingObject(with: id).setValue(Int32(2), forKey: "int32")
            try b.save()
        }
        let error = a.performAndWait { () -> CoreDataError? in
            held.setValue(Int32(3), forKey: "int32")
            do { try a.save() } catch let error as CoreDataError { return error } catch { return nil }
            return nil
        }
        #expect(error?.code == .mergeConflict)
        let c = ManagedObjectContext(concurrencyType: .privateQueue)
        c.persistentStoreCoordinator = first
        let value = try c.performAndWait { try c.existingObject(with: id).value(forKey: "int32") as? Int32 }
        #expect(value == 2)
    }
}
