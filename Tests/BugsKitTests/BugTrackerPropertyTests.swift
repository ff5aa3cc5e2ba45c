import BugsKit
import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Random sequences of the tracker's actions, undos, redos and refused inputs (seeded:
/// replay one with `OCD_SEED`). After every step the saved store keeps the invariants —
/// every bug has a project, every host is its URL's — the session shows what is saved,
/// the list's sections are the hosts and a search finds exactly the matching projects;
/// undo goes back to the state before the action, redo forward again, with the action's
/// name. At the end, undoing everything gives the initial state and redoing everything
/// the final one.
@Suite struct BugTrackerPropertyTests {
    static let steps = 80
    static let names = ["Swift", "GRDB", "swift", "Hummingbird", "Notes", "Ünïcode", "Twin", "Twin"]
    static let urls: [String?] = [nil, "https://github.com/apple/swift", "https://GitHub.com/groue/GRDB.swift",
                                  "http://gitlab.com/x", "https://hummingbird.codes", "mailto:team@example.com", ""]
    static let titles = ["Crash", "Typo", "Slow", "Leak", "crash on launch"]
    static let searches = ["swift", "GIT", "o", "mailto", "zzz", "Twin"]

    @Test(arguments: StoreKind.allCases)
    func randomActionsKeepTheInvariants(kind: StoreKind) throws {
        var random = SeededRandom.fromEnvironment(for: "BugTrackerPropertyTests.randomActionsKeepTheInvariants(\(kind))")
        let fixture = try TrackerFixture(kind)
        let tracker = fixture.tracker
        let session = tracker.session

        // A starting content saved by another editor: the tracker's undo history starts empty.
        let setup = BugTracker(session: EditingSession(context: fixture.stack.newContext()))
        let seeded = try setup.addProject(name: "Seeded", url: "https://seeded.example")
        try setup.addBug(to: seeded.reference, title: "Old bug", screenshot: ScreenshotTests.png)
        try setup.addProject(name: "No URL")

        let initial = try fixture.saved()
        var done: [(state: TrackerState, name: String?)] = [(initial, nil)]   // the last is now
        var undone: [(state: TrackerState, name: String?)] = []               // the last redoes next

        for step in 0 ..< Self.steps {
            let before = done[done.count - 1].state
            let projects = before.projects
            let bugs = projects.flatMap { project in project.bugs.map { (project, $0) } }
            let label = "seed \(random.seed), step \(step)"
            var name: String?
            var refused = false

            switch Int.random(in: 0 ..< 100, using: &random) {
            case 0 ..< 14:
                let row = try tracker.addProject(name: random.pick(Self.names), url: random.pick(Self.urls))
                name = "Add Project “\(row.name)”"
            case 14 ..< 24 where !projects.isEmpty:
                let project = random.pick(projects)
                let newName: String? = random.chance(0.5) ? random.pick(Self.names) : nil
                let newURL: String?? = random.chance(0.7) ? .some(random.pick(Self.urls) ?? "") : nil
                let row = try tracker.editProject(reference(project.key), name: newName, url: newURL ?? nil)
                name = "Edit Project “\(row.name)”"
            case 24 ..< 30 where !projects.isEmpty:
                let project = random.pick(projects)
                try tracker.deleteProject(reference(project.key))
                name = "Delete Project “\(project.name)”"
            case 30 ..< 48 where !projects.isEmpty:
                let project = random.pick(projects)
                let image = random.pick([nil, ScreenshotTests.png, ScreenshotTests.jpeg])
                let row = try tracker.addBug(to: reference(project.key), title: random.pick(Self.titles),
                                             details: random.chance(0.5) ? "Seen at step \(step)\nagain" : nil, screenshot: image)
                name = "Add Bug “\(row.title)”"
            case 48 ..< 58 where !bugs.isEmpty:
                let (_, bug) = random.pick(bugs)
                let change = random.pick([BugTracker.ScreenshotChange.keep, .remove, .replace(ScreenshotTests.jpeg), .replace(ScreenshotTests.png)])
                let row = try tracker.editBug(reference(bug.key), title: random.chance(0.6) ? random.pick(Self.titles) : nil,
                                              details: random.chance(0.4) ? random.pick(["", "Edited"]) : nil, screenshot: change)
                name = "Edit Bug “\(row.title)”"
            case 58 ..< 64 where !bugs.isEmpty:
                let (_, bug) = random.pick(bugs)
                try tracker.deleteBug(reference(bug.key))
                name = "Delete Bug “\(bug.title)”"
            case 64 ..< 78:
                let expected = done.count > 1 ? done[done.count - 1].name : nil
                #expect(session.undoActionName == expected, "\(label)")
                #expect(try session.undo() == expected, "\(label)")
                if done.count > 1 { undone.append(done.removeLast()) }
            case 78 ..< 88:
                let expected = undone.last?.name
                #expect(session.redoActionName == expected, "\(label)")
                #expect(try session.redo() == expected, "\(label)")
                if let next = undone.popLast() { done.append(next) }
            default:
                try refuseBadInput(tracker, projects: projects, random: &random, label: label)
                refused = true
            }

            let now = try fixture.saved()
            if let name {
                // An action that changed nothing (an edit to the same values) is no undo step.
                if now != before {
                    done.append((now, name))
                    undone.removeAll()
                    #expect(session.undoActionName == name, "\(label)")
                }
            } else {
                #expect(now == done[done.count - 1].state, "\(label): \(now) after undo/redo/refusal")
                if refused { #expect(now == before, "\(label): a refused input changed the store") }
            }
            try checkInvariants(now, tracker: tracker, random: &random, label: label)
            #expect(session.canUndo == (done.count > 1), "\(label)")
            #expect(session.canRedo == !undone.isEmpty, "\(label)")
        }

        // Undo everything: the initial state; redo everything: the furthest state.
        let furthest = undone.first?.state ?? done[done.count - 1].state
        var undos = 0
        while session.canUndo {
            try session.undo()
            undos += 1
            #expect(try fixture.saved().violations.isEmpty)
        }
        #expect(undos == done.count - 1)
        #expect(try fixture.saved() == initial)
        while session.canRedo { try session.redo() }
        #expect(try fixture.saved() == furthest)
        #expect(try fixture.saved().violations.isEmpty)
    }

    private func reference<Object: ManagedObject>(_ key: Int64) throws -> Reference<Object> {
        try #require(Reference<Object>(primaryKey: key))
    }

    /// One refused input, chosen at random: a typed error, nothing changed.
    private func refuseBadInput(_ tracker: BugTracker, projects: [TrackerState.ProjectState], random: inout SeededRandom, label: String) throws {
        let project: Reference<Project>? = projects.isEmpty ? nil : try reference(random.pick(projects).key)
        let missing: Reference<Project> = try reference(Int64(10_000 + Int.random(in: 0 ..< 100, using: &random)))
        switch Int.random(in: 0 ..< 6, using: &random) {
        case 0: #expect(throws: BugTrackerError.emptyField(.name), "\(label)") { try tracker.addProject(name: " \n ") }
        case 1: #expect(throws: BugTrackerError.self, "\(label)") { try tracker.addProject(name: "X", url: "javascript:alert(1)") }
        case 2: #expect(throws: EditingSessionError.self, "\(label)") { try tracker.addBug(to: missing, title: "T") }
        case 3:
            guard let project else { return }
            #expect(throws: BugTrackerError.screenshotNotAnImage, "\(label)") {
                try tracker.addBug(to: project, title: "T", screenshot: Data("<svg/>".utf8))
            }
        case 4:
            guard let project else { return }
            #expect(throws: BugTrackerError.emptyField(.name), "\(label)") { try tracker.editProject(project, name: "", url: "https://x.example") }
        default:
            #expect(throws: EditingSessionError.self, "\(label)") { try tracker.deleteProject(missing) }
        }
    }

    /// The invariants of a saved state, and the views the tracker gives of it.
    private func checkInvariants(_ state: TrackerState, tracker: BugTracker, random: inout SeededRandom, label: String) throws {
        #expect(state.violations.isEmpty, "\(label): \(state.violations)")
        #expect(try tracker.session.read { try TrackerState($0) } == state, "\(label): the session differs from the store")
        #expect(try tracker.session.read { $0.hasChanges } == false, "\(label)")

        let list = try tracker.projectList()
        #expect(list.sections.map(\.name) == Set(state.projects.map { $0.host ?? "" }).sorted(), "\(label)")
        for section in list.sections {
            #expect(section.projects.allSatisfy { ($0.host ?? "") == section.name }, "\(label)")
        }
        #expect(list.projects.count == state.projects.count, "\(label)")

        let text = random.pick(Self.searches)
        let search = try tracker.projectList(searchText: text)
        let matching = state.projects.filter { $0.name.localizedCaseInsensitiveContains(text) || ($0.url ?? "").localizedCaseInsensitiveContains(text) }
        #expect(search.sections.count == 1, "\(label)")
        #expect(Set(search.projects.map(\.reference.primaryKey)) == Set(matching.map(\.key)), "\(label): search “\(text)”")
        #expect(!search.allowsEditing, "\(label)")

        if let project = state.projects.first(where: { !$0.bugs.isEmpty }) {
            let rows = try tracker.bugs(of: reference(project.key))
            #expect(rows.map(\.created) == rows.map(\.created).sorted(by: >), "\(label): bugs not newest first")
            #expect(Set(rows.map(\.reference.primaryKey)) == Set(project.bugs.map(\.key)), "\(label)")
        }
    }
}
