import CSQLite
import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// SQLite's I/O-error loops (RELIABILITY.md §5.3) through a VFS that fails the Nth I/O
/// call: for N = 1, 2, … over every read, write, sync, truncate, lock, size, shm-map,
/// open and delete of a save, an open and a store's creation, until the operation
/// runs without reaching N. Each failure must be a `CoreDataError`, leave the file as
/// before (and sound), keep the context's changes, and succeed when retried.
@Suite(.serialized) struct FaultInjectionTests {
    /// More I/O calls than any of these operations makes; the loops end well before.
    private let maximumN = 2_000

    @Test(arguments: FaultVFS.Mode.allCases)
    func everyFailedIOCallOfASaveIsTypedAndLosesNothing(mode: FaultVFS.Mode) throws {
        let folder = try FaultFolder()
        let template = folder.path("template.sqlite")
        try FaultFixture.build(at: template)
        let before = try StoreOracle(path: template).contents()
        let after = try savedWithoutFaults(folder, template)
        #expect(after != before)
        var tally = FaultTally()
        for nth in 1...maximumN {
            let path = try folder.copy(template, to: "save-\(nth).sqlite")
            let faults = try saveFailing(nth: nth, mode: mode, at: path, before: before, after: after, tally: &tally)
            if faults == 0 { break }
        }
        #expect(folder.openDescriptors().isEmpty, "file descriptors left open: \(folder.openDescriptors())")
        print("FaultInjectionTests.save \(mode): \(tally)")
        #expect(tally.typedErrors > 0)
    }

    @Test(arguments: FaultVFS.Mode.allCases)
    func everyFailedIOCallOfAnOpenIsTypedAndChangesNothing(mode: FaultVFS.Mode) throws {
        let folder = try FaultFolder()
        let template = folder.path("template.sqlite")
        try FaultFixture.build(at: template)
        let before = try StoreOracle(path: template).contents()
        var tally = FaultTally()
        for nth in 1...maximumN {
            let path = try folder.copy(template, to: "open-\(nth).sqlite")
            let (result, faults) = FaultVFS.injecting(nth: nth, mode: mode) { try Self.openAndReadEverything(path) }
            tally.count(faults: faults, result)
            if case .failure(let error) = result {
                if let error = error as? CoreDataError {
                    #expect(!Self.reportsIOErrorAsDamage(error), "N = \(nth) \(mode): an injected I/O fault was reported as \(error)")
                } else {
                    Issue.record("N = \(nth) \(mode): not a CoreDataError: \(error)")
                }
            }
            #expect(try StoreOracle(path: path).contents() == before, "N = \(nth) \(mode): \(result)")
            try TortureChecks.reopenAndCheckIntegrity(path)
            if faults == 0 { break }
        }
        #expect(folder.openDescriptors().isEmpty, "file descriptors left open: \(folder.openDescriptors())")
        print("FaultInjectionTests.open \(mode): \(tally)")
        #expect(tally.typedErrors > 0)
    }

    @Test(arguments: FaultVFS.Mode.allCases)
    func everyFailedIOCallOfAStoreCreationIsTypedAndARetryCreatesIt(mode: FaultVFS.Mode) throws {
        let folder = try FaultFolder()
        var tally = FaultTally()
        var refused = 0
        for nth in 1...maximumN {
            let path = folder.path("create-\(nth).sqlite")
            let (result, faults) = FaultVFS.injecting(nth: nth, mode: mode) { try Self.openAndReadEverything(path) }
            tally.count(faults: faults, result)
            if case .failure(let error) = result, !(error is CoreDataError) {
                Issue.record("N = \(nth) \(mode): not a CoreDataError: \(error)")
            }
            // Whether it failed or not, the store now opens and works.
            do {
                try Self.saveOneRecordAndReadItBack(path)
            } catch {
                Issue.record("N = \(nth) \(mode): after \(result), the store does not open and save: \(error)")
                refused += 1
            }
            if faults == 0 { break }
        }
        #expect(folder.openDescriptors().isEmpty, "file descriptors left open: \(folder.openDescriptors())")
        print("FaultInjectionTests.create \(mode): \(tally), \(refused) left a file that later opens refuse")
        #expect(tally.typedErrors > 0)
    }

    // MARK: - Helpers

    /// Opens the store at `path`, makes the fixture's change and saves it with the `nth`
    /// I/O call failing; checks the outcome and returns how many faults were injected.
    private func saveFailing(nth: Int, mode: FaultVFS.Mode, at path: String, before: [String], after: [String], tally: inout FaultTally) throws -> Int {
        let place = "N = \(nth) \(mode)"
        let stack = try TortureStack(path: path)
        defer { FaultFixture.close(stack) }
        return try stack.context.performAndWait {
            try FaultFixture.change(stack)
            let pending = PendingChanges(stack.context)
            let (result, faults) = FaultVFS.injecting(nth: nth, mode: mode) { try stack.context.save() }
            tally.count(faults: faults, result)
            switch result {
            case .success:
                // No fault reached, or SQLite absorbed it (it retries some calls): saved.
                #expect(try StoreOracle(path: path).contents() == after, "\(place): saved with \(faults) faults")
            case .failure(let error as CoreDataError):
                #expect(PendingChanges(stack.context) == pending, "\(place): the context lost its changes after \(error)")
                #expect(try StoreOracle(path: path).contents() == before, "\(place): the store changed after \(error)")
                try TortureChecks.reopenAndCheckIntegrity(path)
                do {
                    try stack.context.save()
                    #expect(!stack.context.hasChanges)
                    #expect(try StoreOracle(path: path).contents() == after, "\(place): the retried save")
                } catch let retryError {
                    Issue.record("\(place): the retry after \(error) failed: \(retryError)")
                }
            case .failure(let error):
                Issue.record("\(place): not a CoreDataError: \(error)")
            }
            return faults
        }
    }

    /// The store's content after the fixture's change was saved without faults.
    private func savedWithoutFaults(_ folder: FaultFolder, _ template: String) throws -> [String] {
        let path = try folder.copy(template, to: "clean.sqlite")
        let stack = try TortureStack(path: path)
        try stack.context.performAndWait {
            try FaultFixture.change(stack)
            try stack.context.save()
        }
        FaultFixture.close(stack)
        return try StoreOracle(path: path).contents()
    }

    /// Whether an I/O error (an injected fault) was reported as a damaged store, which
    /// would tell an app to throw a sound store away.
    private static func reportsIOErrorAsDamage(_ error: CoreDataError) -> Bool {
        guard error.code == .storeCorrupt || error.code == .notAStore, let code = error.sqliteResultCode else { return false }
        return [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_BUSY, SQLITE_FULL].contains(code & 0xff)
    }

    private static func openAndReadEverything(_ path: String) throws {
        let stack = try TortureStack(path: path)
        defer { FaultFixture.close(stack) }
        let attributes = ["Record": "checksum", "Ledger": "lastBatch", "Counter": "value", "Item": "title"]
        try stack.context.performAndWait {
            for (entity, key) in attributes {
                for object in try stack.fetch(entity) { _ = object.value(forKey: key) }
            }
        }
    }

    private static func saveOneRecordAndReadItBack(_ path: String) throws {
        let stack = try TortureStack(path: path)
        let count = try stack.context.performAndWait {
            _ = stack.insert("Record", ["batch": Int64(9), "position": Int64(0)])
            try stack.context.save()
            return try stack.fetch("Record", "batch == 9").count
        }
        FaultFixture.close(stack)
        #expect(count == 1)
        try TortureChecks.reopenAndCheckIntegrity(path)
    }
}

/// What a context holds unsaved, by object identity.
private struct PendingChanges: Equatable {
    let hasChanges: Bool
    let inserted: Set<ObjectIdentifier>
    let updated: Set<ObjectIdentifier>
    let deleted: Set<ObjectIdentifier>
    let temporaryIDs: Int

    init(_ context: ManagedObjectContext) {
        hasChanges = context.hasChanges
        inserted = Set(context.insertedObjects.map(ObjectIdentifier.init))
        updated = Set(context.updatedObjects.map(ObjectIdentifier.init))
        deleted = Set(context.deletedObjects.map(ObjectIdentifier.init))
        temporaryIDs = context.insertedObjects.filter(\.objectID.isTemporaryID).count
    }
}
