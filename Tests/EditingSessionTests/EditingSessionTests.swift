import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

@Suite struct EditingSessionTests {
    @Test(arguments: StoreKind.allCases)
    func anActionIsOneNamedUndoStepSavedAtOnce(_ kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let session = try Counter.session(kind, at: folder.file())
        let milk = try #require(try session.addCounter("Milk"))
        try session.perform("Count") { context in
            try session.object(milk).value += 1
            _ = try context.count(for: FetchRequest<Counter>())    // a fetch ends an event
            try session.object(milk).value += 1
        }
        #expect(try session.read { $0.hasChanges } == false)
        #expect(session.undoActionName == "Count")
        if kind == .sqlite {
            #expect(try Counter.session(.sqlite, at: folder.file()).value(of: milk) == 2)
        }

        #expect(try session.undo() == "Count")
        #expect(try session.value(of: milk) == 0)
        #expect(session.undoActionName == "Add “Milk”")
        #expect(session.redoActionName == "Count")
        #expect(try session.undo() == "Add “Milk”")
        #expect(throws: EditingSessionError.notFound(entity: "Counter", reference: milk.description)) { try session.value(of: milk) }
        #expect(try session.undo() == nil)
        #expect(try session.read { $0.hasChanges } == false)

        #expect(try session.redo() == "Add “Milk”")
        #expect(try session.redo() == "Count")
        #expect(try session.redo() == nil)
        #expect(try session.value(of: milk) == 2)
        if kind == .sqlite {
            #expect(try Counter.session(.sqlite, at: folder.file()).value(of: milk) == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedActionLeavesNoTrace(_ kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let session = try Counter.session(kind, at: folder.file())
        let milk = try #require(try session.addCounter("Milk", value: 1))
        try session.count(milk, by: 1)
        try session.undo()

        // The body throws after changing the counter.
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try session.perform("Break") { _ in
                try session.object(milk).value = 100
                throw Refused()
            }
        }
        // The save throws: an empty name fails validation.
        #expect(throws: CoreDataError.self) {
            try session.perform("Rename") { _ in try session.object(milk).name = "" }
        }
        #expect(throws: CoreDataError.self) { try session.addCounter("") }

        #expect(try session.read { $0.hasChanges } == false)
        #expect(try session.value(of: milk) == 1)
        #expect(try session.read { _ in try session.object(milk).name } == "Milk")
        #expect(try session.read { context in try context.count(for: FetchRequest<Counter>()) } == 1)
        // The undo history is as it was; like any new action, an attempt ends the redo history.
        #expect(session.undoActionName == "Add “Milk”")
        #expect(session.canRedo == false)
        #expect(try session.undo() == "Add “Milk”")
        #expect(try session.read { context in try context.count(for: FetchRequest<Counter>()) } == 0)
    }

    @Test func anActionRunsAgainWhenAnotherEditorSavedFirst() throws {
        let folder = TemporaryFolder()
        let mine = try Counter.session(.sqlite, at: folder.file())
        let theirs = try Counter.session(.sqlite, at: folder.file())
        let counter = try #require(try mine.addCounter("Shared"))
        #expect(try mine.value(of: counter) == 0)      // loaded here, at 0

        try theirs.count(counter, by: 10)               // saved elsewhere: 10
        var attempts = 0
        try mine.perform("Count") { _ in               // read 0, conflicts, runs again on 10
            attempts += 1
            try mine.object(counter).value += 1
        }
        #expect(attempts == 2)
        #expect(try mine.value(of: counter) == 11)
        #expect(try theirs.read { context in context.refreshAllObjects(); return try theirs.object(counter).value } == 11)
        #expect(mine.undoActionName == "Count")
        #expect(try mine.read { $0.hasChanges } == false)
    }

    @Test func aConflictBeyondTheRetriesIsThrownAndChangesNothing() throws {
        let folder = TemporaryFolder()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Counter.model())
        try coordinator.addPersistentStore(type: .sqlite, at: folder.file())
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        let mine = EditingSession(context: context, conflictRetries: 0)
        let theirs = try Counter.session(.sqlite, at: folder.file())
        let counter = try #require(try mine.addCounter("Shared"))
        #expect(try mine.value(of: counter) == 0)

        try theirs.count(counter, by: 10)
        let error = try #require(throws: CoreDataError.self) { try mine.count(counter, by: 1) }
        #expect(error.code == .mergeConflict)
        #expect(try mine.read { $0.hasChanges } == false)
        #expect(try mine.value(of: counter) == 10)      // the store's value, read again
        #expect(mine.undoActionName == "Add “Shared”")
        #expect(mine.canRedo == false)
    }

    @Test func undoThatWouldOverwriteAnotherEditorIsRefused() throws {
        let folder = TemporaryFolder()
        let mine = try Counter.session(.sqlite, at: folder.file())
        let theirs = try Counter.session(.sqlite, at: folder.file())
        let counter = try #require(try mine.addCounter("Shared"))
        try mine.count(counter, by: 1)
        try theirs.count(counter, by: 10)               // now 11 on disk

        #expect(throws: EditingSessionError.conflict(action: "Count")) { try mine.undo() }
        #expect(try mine.read { $0.hasChanges } == false)
        #expect(try mine.value(of: counter) == 11)
        #expect(mine.undoActionName == "Count")          // still there, not lost
        #expect(mine.canRedo == false)
        #expect(try theirs.read { context in context.refreshAllObjects(); return try theirs.object(counter).value } == 11)
    }

    @Test(arguments: StoreKind.allCases)
    func referencesResolveOnlyToLiveObjectsOfTheirType(_ kind: StoreKind) throws {
        let session = try Counter.session(kind, at: TemporaryFolder().file())
        let milk = try #require(try session.addCounter("Milk"))
        #expect(try session.read { _ in try session.object(milk).name } == "Milk")
        let unknown = try #require(Reference<Counter>(primaryKey: milk.primaryKey + 1000))
        #expect(throws: EditingSessionError.notFound(entity: "Counter", reference: unknown.description)) {
            try session.read { _ in try session.object(unknown) }
        }
        try session.perform("Delete") { context in context.delete(try session.object(milk)) }
        #expect(throws: EditingSessionError.notFound(entity: "Counter", reference: milk.description)) {
            try session.read { _ in try session.object(milk) }
        }
        #expect(EditingSessionError.notFound(entity: "Counter", reference: "3").description.contains("Counter 3"))
    }

    @Test(arguments: StoreKind.allCases)
    func onlyASavedObjectHasAReference(_ kind: StoreKind) throws {
        let session = try Counter.session(kind, at: TemporaryFolder().file())
        let milk = try #require(try session.addCounter("Milk"))
        try session.read { context in
            let saved = try session.savedReference(to: session.object(milk))
            #expect(saved == milk)
            let unsaved = Counter(context: context)
            #expect(session.reference(to: unsaved) == nil)
            #expect(throws: EditingSessionError.notFound(entity: "Counter", reference: "(unsaved)")) {
                try session.savedReference(to: unsaved)
            }
            context.delete(unsaved)
        }
    }
}
