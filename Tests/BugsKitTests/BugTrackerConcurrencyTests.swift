import BugsKit
import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Two editors on one store — two browser tabs, or the server and the command line —
/// each with its own tracker and context.
@Suite struct BugTrackerConcurrencyTests {
    /// Two trackers on one coordinator (SQLite and in memory) or, for SQLite, on two
    /// coordinators of the same file, as two processes would be.
    static func pair(_ kind: StoreKind, coordinators: Int) throws -> (TrackerFixture, BugTracker) {
        let fixture = try TrackerFixture(kind)
        let context = coordinators == 1 ? fixture.stack.newContext() : try fixture.stack.reopened(model: BugsModel.makeModel()).context
        return (fixture, BugTracker(session: EditingSession(context: context)))
    }

    static let setups: [(StoreKind, Int)] = [(.sqlite, 1), (.inMemory, 1), (.sqlite, 2)]

    @Test(arguments: setups)
    func aBugFiledInAProjectAnotherEditorDeletedIsRefused(kind: StoreKind, coordinators: Int) throws {
        let (fixture, other) = try Self.pair(kind, coordinators: coordinators)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift").reference
        #expect(try other.project(swift).name == "Swift")      // the other editor has it loaded
        try tracker.deleteProject(swift)

        #expect(throws: EditingSessionError.notFound(entity: "Project", reference: swift.description)) {
            try other.addBug(to: swift, title: "Too late")
        }
        let saved = try fixture.saved()
        #expect(saved.projects.isEmpty)
        #expect(saved.violations.isEmpty)
        #expect(try other.session.read { $0.hasChanges } == false)
        #expect(throws: EditingSessionError.self) { try other.project(swift) }
    }

    @Test(arguments: setups)
    func editsOfTwoEditorsBothLand(kind: StoreKind, coordinators: Int) throws {
        let (fixture, other) = try Self.pair(kind, coordinators: coordinators)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift", url: "https://github.com/apple/swift").reference
        _ = try other.project(swift)
        try tracker.editProject(swift, url: "https://swift.org")
        try other.editProject(swift, name: "Swift Language")     // a merge conflict, run again
        let saved = try fixture.saved()
        #expect(saved.projects.map(\.name) == ["Swift Language"])
        #expect(saved.projects.map(\.host) == ["swift.org"])
        #expect(saved.violations.isEmpty)
        #expect(try other.project(swift).host == "swift.org")
    }
}
