import DemoStore
import BugsKit
import EditingSession
import Foundation

/// The `bugs` commands' way into `BugsKit`: one `BugTracker` on a private-queue context of
/// the store, and the command line's addressing — `@12` or `12` for a reference, anything
/// else a project's exact name.
struct TrackerSession {
    let tracker: BugTracker

    init(store: DemoStore) {
        tracker = BugTracker(session: EditingSession(context: store.newContext()))
    }

    func projects(matching search: String?) throws -> ProjectList {
        try tracker.projectList(searchText: search)
    }

    func addProject(name: String, url: String?) throws -> TrackerOutput.Action {
        let project = try tracker.addProject(name: name, url: url)
        return TrackerOutput.Action(action: actionName, project: project)
    }

    func bugs(of identifier: String) throws -> TrackerOutput.Bugs {
        let project = try lookupProject(identifier)
        return TrackerOutput.Bugs(project: project, bugs: try tracker.bugs(of: project.reference))
    }

    func addBug(to identifier: String, title: String, details: String?, screenshot: Data?) throws -> TrackerOutput.Action {
        let project = try lookupProject(identifier)
        let bug = try tracker.addBug(to: project.reference, title: title, details: details, screenshot: screenshot)
        return TrackerOutput.Action(action: actionName, bug: bug)
    }

    func removeProject(_ identifier: String) throws -> TrackerOutput.Action {
        try tracker.deleteProject(try lookupProject(identifier).reference)
        return TrackerOutput.Action(action: actionName)
    }

    func removeBug(_ identifier: String) throws -> TrackerOutput.Action {
        let text = identifier.hasPrefix("@") ? String(identifier.dropFirst()) : identifier
        guard let reference = Reference<Bug>(text) else {
            throw EditingSessionError.notFound(entity: "Bug", reference: identifier)
        }
        try tracker.deleteBug(reference)
        return TrackerOutput.Action(action: actionName)
    }

    /// The project `@12`, `12` or `Name` names (see `BugTracker.lookupProject(_:)`).
    private func lookupProject(_ identifier: String) throws -> ProjectRow {
        try tracker.lookupProject(identifier.hasPrefix("@") ? String(identifier.dropFirst()) : identifier)
    }

    /// The name of the action just done, as its undo step is named (“Add Bug “Crash””).
    private var actionName: String { tracker.session.undoActionName ?? "" }
}
