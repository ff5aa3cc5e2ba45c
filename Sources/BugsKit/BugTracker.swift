import EditingSession
import Foundation
import OpenCoreData

/// The Project/Bug tracker's logic, free of any UI: what its pages and its command line
/// call.
///
/// Every change is a user action of an `EditingSession` — one named undo step (“Add
/// Project “Swift””, “Delete Bug “Crash””), saved at once — and every read hands plain
/// `Sendable` rows out of the context's queue. Undo and redo go through `session`
/// (`session.undo()`, `session.undoActionName`…).
///
/// ```swift
/// let tracker = BugTracker(session: EditingSession(context: container.newBackgroundContext()))
/// let swift = try tracker.addProject(name: "Swift", url: "https://github.com/apple/swift")
/// try tracker.addBug(to: swift.reference, title: "Crash on launch", screenshot: pngData)
/// print(try tracker.projectList().sections.map(\.name))   // ["github.com"]
/// try tracker.session.undo()                               // "Add Bug “Crash on launch”"
/// ```
///
/// Input is checked before anything changes: an empty name or title, a field over its
/// limit (`Limits`), a URL the tracker does not accept (`validatedURL(_:)`), a screenshot
/// that is not a PNG or JPEG (`Screenshot`) throw a `BugTrackerError`; an unknown or
/// deleted reference throws `EditingSessionError.notFound`. Either way nothing changed.
/// `CoreDataError`s pass through unchanged.
public final class BugTracker: Sendable {
    /// The editing session the tracker's actions and reads go through: its context, its
    /// undo stack.
    public let session: EditingSession

    /// A tracker working through `session`, whose context's model contains the tracker's
    /// entities (`BugsModel.makeModel()`, or a model merged with it).
    public init(session: EditingSession) {
        self.session = session
    }
}
