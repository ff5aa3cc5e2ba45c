import BugsKit
import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Every action of the tracker, saved at once, and its undo and redo, on both stores.
@Suite struct BugTrackerTests {
    static let png = ScreenshotTests.png
    static let jpeg = ScreenshotTests.jpeg

    @Test(arguments: StoreKind.allCases)
    func addProjectAndItsUndoRedo(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let row = try tracker.addProject(name: "  Swift ", url: "https://GitHub.com/apple/swift")
        #expect(row.name == "Swift")
        #expect(row.url == "https://GitHub.com/apple/swift")
        #expect(row.host == "github.com")
        #expect(row.bugCount == 0)
        #expect(try tracker.project(row.reference) == row)
        let added = try fixture.saved()
        #expect(added.projects.map(\.name) == ["Swift"])
        #expect(added.projects.map(\.host) == ["github.com"])

        #expect(tracker.session.undoActionName == "Add Project “Swift”")
        #expect(try tracker.session.undo() == "Add Project “Swift”")
        #expect(try fixture.saved().projects.isEmpty)
        #expect(throws: EditingSessionError.self) { try tracker.project(row.reference) }
        #expect(tracker.session.redoActionName == "Add Project “Swift”")
        try tracker.session.redo()
        #expect(try fixture.saved() == added)
        #expect(try tracker.project(row.reference) == row)       // the same reference again
    }

    @Test(arguments: StoreKind.allCases)
    func editProjectKeepsTheHostInSyncThroughUndoAndRedo(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift", url: "https://github.com/apple/swift").reference
        let before = try fixture.saved()

        let edited = try tracker.editProject(swift, name: "Swift Forums", url: "https://Forums.Swift.org")
        #expect(edited.name == "Swift Forums")
        #expect(edited.host == "forums.swift.org")
        let after = try fixture.saved()
        #expect(after.projects.map(\.host) == ["forums.swift.org"])
        #expect(tracker.session.undoActionName == "Edit Project “Swift Forums”")

        try tracker.session.undo()
        #expect(try fixture.saved() == before)
        #expect(try tracker.project(swift).host == "github.com")
        try tracker.session.redo()
        #expect(try fixture.saved() == after)

        // Only the URL; then removing it takes the host away.
        #expect(try tracker.editProject(swift, url: "mailto:team@swift.org").host == nil)
        #expect(try tracker.project(swift).name == "Swift Forums")
        try tracker.editProject(swift, url: "https://swift.org")
        let removed = try tracker.editProject(swift, url: "")
        #expect(removed.url == nil)
        #expect(removed.host == nil)
        #expect(try fixture.saved().violations.isEmpty)
        try tracker.session.undo()
        #expect(try fixture.saved().projects.map(\.host) == ["swift.org"])
        #expect(try tracker.projectList().sections.map(\.name) == ["swift.org"])
    }

    @Test(arguments: StoreKind.allCases)
    func deleteProjectCascadesToItsBugsAndUndoBringsThemBack(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift", url: "https://github.com/apple/swift").reference
        let grdb = try tracker.addProject(name: "GRDB", url: "https://github.com/groue/GRDB.swift").reference
        try tracker.addBug(to: swift, title: "Crash", details: "On launch\nevery time", screenshot: Self.png)
        try tracker.addBug(to: swift, title: "Typo", screenshot: Self.jpeg)
        try tracker.addBug(to: grdb, title: "Kept")
        let before = try fixture.saved()
        #expect(before.bugCount == 3)

        try tracker.deleteProject(swift)
        #expect(tracker.session.undoActionName == "Delete Project “Swift”")
        let after = try fixture.saved()
        #expect(after.projects.map(\.name) == ["GRDB"])
        #expect(after.bugCount == 1)
        let reader = fixture.stack.newContext()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest<BugsKit.Bug>(entityName: "Bug")) } == 1)

        try tracker.session.undo()
        #expect(try fixture.saved() == before)                 // names, bugs, screenshots, references
        #expect(try tracker.bugs(of: swift).map(\.title).sorted() == ["Crash", "Typo"])
        try tracker.session.redo()
        #expect(try fixture.saved() == after)
    }

    @Test(arguments: StoreKind.allCases)
    func addBugWithAScreenshotAndReadItBack(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift").reference
        let bug = try tracker.addBug(to: swift, title: " Crash ", details: "  Steps:\n\t1. launch  ", screenshot: Self.png)
        #expect(bug.title == "Crash")
        #expect(bug.details == "Steps:\n\t1. launch")
        #expect(bug.project == swift)
        #expect(bug.screenshotFormat == .png)
        #expect(bug.hasScreenshot)
        let screenshot = try #require(try tracker.screenshot(of: bug.reference))
        #expect(screenshot.data == Self.png)
        #expect(screenshot.mimeType == "image/png")
        #expect(try tracker.project(swift).bugCount == 1)
        #expect(tracker.session.undoActionName == "Add Bug “Crash”")

        let plain = try tracker.addBug(to: swift, title: "No image")
        #expect(try tracker.screenshot(of: plain.reference) == nil)
        #expect(!plain.hasScreenshot)

        try tracker.session.undo()
        try tracker.session.undo()
        #expect(try fixture.saved().bugCount == 0)
        #expect(throws: EditingSessionError.self) { try tracker.screenshot(of: bug.reference) }
        try tracker.session.redo()
        #expect(try tracker.screenshot(of: bug.reference)?.data == Self.png)
        #expect(try tracker.bug(bug.reference) == bug)
    }

    @Test(arguments: StoreKind.allCases)
    func editBugAndItsUndoRedo(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift").reference
        let bug = try tracker.addBug(to: swift, title: "Crash", details: "Old", screenshot: Self.png).reference
        let before = try fixture.saved()

        let edited = try tracker.editBug(bug, title: "Crash on launch", details: "", screenshot: .replace(Self.jpeg))
        #expect(edited.title == "Crash on launch")
        #expect(edited.details == nil)
        #expect(edited.screenshotFormat == .jpeg)
        #expect(try tracker.screenshot(of: bug)?.mimeType == "image/jpeg")
        #expect(tracker.session.undoActionName == "Edit Bug “Crash on launch”")
        let after = try fixture.saved()

        try tracker.session.undo()
        #expect(try fixture.saved() == before)
        #expect(try tracker.screenshot(of: bug)?.data == Self.png)
        try tracker.session.redo()
        #expect(try fixture.saved() == after)

        let removed = try tracker.editBug(bug, screenshot: .remove)
        #expect(removed.title == "Crash on launch")
        #expect(!removed.hasScreenshot)
        #expect(try tracker.screenshot(of: bug) == nil)
        #expect(try tracker.editBug(bug, details: "New").details == "New")
    }

    @Test(arguments: StoreKind.allCases)
    func deleteBugAndItsUndoRedo(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift").reference
        let bug = try tracker.addBug(to: swift, title: "Crash", screenshot: Self.jpeg).reference
        let before = try fixture.saved()
        try tracker.deleteBug(bug)
        #expect(tracker.session.undoActionName == "Delete Bug “Crash”")
        #expect(try tracker.bugs(of: swift).isEmpty)
        #expect(try tracker.project(swift).bugCount == 0)
        try tracker.session.undo()
        #expect(try fixture.saved() == before)
        #expect(try tracker.bugs(of: swift).map(\.reference) == [bug])
        try tracker.session.redo()
        #expect(try fixture.saved().bugCount == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func bugsAreListedNewestFirst(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift").reference
        let other = try tracker.addProject(name: "Other").reference
        var filed: [BugRow] = []
        for title in ["first", "second", "third"] {
            filed.append(try tracker.addBug(to: swift, title: title))
            try tracker.addBug(to: other, title: "other \(title)")
        }
        #expect(filed.map(\.created) == filed.map(\.created).sorted())
        #expect(try tracker.bugs(of: swift).map(\.title) == ["third", "second", "first"])
        #expect(try tracker.bugs(of: swift) == filed.reversed())

        // The live list follows: a new bug goes on top, an undone one leaves.
        let controller = try tracker.makeBugListController(for: swift)
        let recorder = ChangeCounter()
        try tracker.session.read { _ in controller.delegate = recorder }
        try tracker.addBug(to: swift, title: "fourth")
        try tracker.session.read { _ in
            #expect(controller.fetchedObjects?.map(\.title) == ["fourth", "third", "second", "first"])
        }
        try tracker.session.undo()
        try tracker.session.read { _ in
            #expect(controller.fetchedObjects?.map(\.title) == ["third", "second", "first"])
            #expect(recorder.changes >= 2)
            controller.delegate = nil
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theProjectListAsRows(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        try tracker.addProject(name: "swift", url: "https://github.com/apple/swift")
        let grdb = try tracker.addProject(name: "GRDB", url: "https://github.com/groue/GRDB.swift")
        try tracker.addProject(name: "Notes")
        try tracker.addBug(to: grdb.reference, title: "One")

        let list = try tracker.projectList()
        #expect(list.sections.map(\.name) == ["", "github.com"])
        #expect(list.sections.map(\.indexTitle) == ["#", "G"])
        #expect(list.sectionIndexTitles == ["#", "G"])
        #expect(list.projects.map(\.name) == ["Notes", "GRDB", "swift"])
        #expect(list.projects.map(\.bugCount) == [0, 1, 0])
        #expect(!list.isSearching)
        #expect(list.allowsEditing)

        let search = try tracker.projectList(searchText: "SWIFT")
        #expect(search.isSearching)
        #expect(!search.allowsEditing)
        #expect(search.sections.count == 1)
        #expect(search.sectionIndexTitles.isEmpty)
        #expect(search.projects.map(\.name) == ["GRDB", "swift"])

        // Rows travel as JSON (the command line's --json).
        let decoded = try JSONDecoder().decode(ProjectList.self, from: JSONEncoder().encode(search))
        #expect(decoded == search)

        // The live controller for a page, with the same flags.
        let controller = try tracker.makeProjectListController(searchText: "notes")
        try tracker.session.read { _ in
            #expect(controller.fetchedObjects?.map(\.name) == ["Notes"])
            #expect(!controller.allowsEditing)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func lookupByReferenceOrExactName(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift", url: "https://swift.org")
        let first = try tracker.addProject(name: "Twin")
        let second = try tracker.addProject(name: "Twin")
        let numbered = try tracker.addProject(name: swift.reference.description)   // a name that is also a reference

        #expect(try tracker.lookupProject("Swift") == swift)
        #expect(try tracker.lookupProject(" Swift ") == swift)
        #expect(try tracker.lookupProject(swift.reference.description) == swift)    // the reference wins
        #expect(try tracker.lookupProject(numbered.reference.description) == numbered)
        #expect(throws: BugTrackerError.noProjectNamed("swift")) { try tracker.lookupProject("swift") }
        #expect(throws: BugTrackerError.noProjectNamed("999")) { try tracker.lookupProject("999") }
        #expect(throws: BugTrackerError.ambiguousProjectName("Twin", references: [first.reference.description, second.reference.description])) {
            try tracker.lookupProject("Twin")
        }
        try tracker.deleteProject(first.reference)
        #expect(try tracker.lookupProject("Twin") == second)
    }

    @Test(arguments: StoreKind.allCases)
    func badInputIsATypedErrorAndChangesNothing(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift", url: "https://swift.org").reference
        let bug = try tracker.addBug(to: swift, title: "Crash", screenshot: Self.png).reference
        try tracker.deleteProject(try tracker.addProject(name: "Gone").reference)
        let gone = try #require(Reference<Project>(primaryKey: swift.primaryKey + 1))
        let before = try fixture.saved()
        let undoName = tracker.session.undoActionName
        let long = String(repeating: "x", count: 201)
        let huge = Self.png + Data(count: Screenshot.maximumSize)
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)

        let cases: [(BugTrackerError, () throws -> Void)] = [
            (.emptyField(.name), { try tracker.addProject(name: "  ") }),
            (.fieldTooLong(.name, limit: 200), { try tracker.addProject(name: long) }),
            (.controlCharacters(.name), { try tracker.addProject(name: "Two\nlines") }),
            (.invalidURL("javascript:alert(1)", reason: "the scheme must be http, https or mailto"), { try tracker.addProject(name: "X", url: "javascript:alert(1)") }),
            (.emptyField(.name), { try tracker.editProject(swift, name: "") }),
            (.invalidURL("swift.org", reason: "it needs a scheme, as in https://swift.org"), { try tracker.editProject(swift, url: "swift.org") }),
            (.emptyField(.title), { try tracker.addBug(to: swift, title: "\t") }),
            (.fieldTooLong(.title, limit: 200), { try tracker.editBug(bug, title: long) }),
            (.fieldTooLong(.details, limit: 10_000), { try tracker.addBug(to: swift, title: "T", details: String(repeating: "d", count: 10_001)) }),
            (.controlCharacters(.details), { try tracker.editBug(bug, details: "nul\u{0}") }),
            (.screenshotNotAnImage, { try tracker.addBug(to: swift, title: "T", screenshot: svg) }),
            (.screenshotNotAnImage, { try tracker.editBug(bug, screenshot: .replace(Data("<html>".utf8))) }),
            (.screenshotTooLarge(bytes: huge.count, limit: Screenshot.maximumSize), { try tracker.addBug(to: swift, title: "T", screenshot: huge) }),
        ]
        for (expected, action) in cases {
            #expect(throws: expected) { try action() }
            #expect(!expected.description.isEmpty)
        }
        // Unknown and deleted references.
        #expect(throws: EditingSessionError.self) { try tracker.addBug(to: gone, title: "T") }
        #expect(throws: EditingSessionError.self) { try tracker.editProject(gone, name: "N") }
        #expect(throws: EditingSessionError.self) { try tracker.deleteProject(gone) }
        let unknownBug = try #require(Reference<BugsKit.Bug>(primaryKey: 4242))
        #expect(throws: EditingSessionError.self) { try tracker.editBug(unknownBug, title: "N") }
        #expect(throws: EditingSessionError.self) { try tracker.deleteBug(unknownBug) }
        #expect(throws: EditingSessionError.self) { try tracker.bugs(of: gone) }

        #expect(try fixture.saved() == before)
        #expect(tracker.session.undoActionName == undoName)
        #expect(try tracker.session.read { $0.hasChanges } == false)
    }

    @Test(arguments: StoreKind.allCases)
    func aStoredScreenshotThatIsNotAnImageIsNeverHandedOut(kind: StoreKind) throws {
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let swift = try tracker.addProject(name: "Swift").reference
        let bug = try tracker.addBug(to: swift, title: "Crash").reference
        // Written around the tracker, as another program could.
        try tracker.session.perform("Forge") { _ in
            try tracker.session.object(bug).screenshot = Data("<html><script>x</script></html>".utf8)
        }
        #expect(try tracker.bug(bug).hasScreenshot == false)
        #expect(throws: BugTrackerError.screenshotNotAnImage) { try tracker.screenshot(of: bug) }
    }
}

/// Counts the changes a controller reports.
final class ChangeCounter: FetchedResultsControllerDelegate {
    var changes = 0

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        changes += 1
    }
}
