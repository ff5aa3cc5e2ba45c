import EditingSession
import Foundation
import OpenCoreData

/// A bug as a plain value, to hand out of the context's queue. The screenshot's bytes
/// are not in it: read them with `BugTracker.screenshot(of:)`.
public struct BugRow: Sendable, Hashable, Codable, Identifiable {
    /// The bug's reference.
    public let reference: Reference<Bug>
    /// The reference of the bug's project.
    public let project: Reference<Project>
    /// The bug's title.
    public let title: String
    /// The bug's details, or nil.
    public let details: String?
    /// When the bug was filed.
    public let created: Date
    /// The screenshot's format, or nil when the bug has no (valid) screenshot.
    public let screenshotFormat: Screenshot.Format?

    public var id: Reference<Bug> { reference }
    /// Whether the bug has a screenshot to show.
    public var hasScreenshot: Bool { screenshotFormat != nil }

    /// The row of a saved bug. Call it on the context's queue.
    ///
    /// - Throws: `EditingSessionError.notFound` for a bug (or project) not saved yet.
    public init(_ bug: Bug, session: EditingSession) throws {
        reference = try session.savedReference(to: bug)
        guard let owner = bug.project else {
            throw EditingSessionError.notFound(entity: "Bug", reference: "(no project)")
        }
        project = try session.savedReference(to: owner)
        title = bug.title
        details = bug.details
        created = bug.created
        screenshotFormat = bug.screenshot.flatMap(Screenshot.format(of:))
    }
}
