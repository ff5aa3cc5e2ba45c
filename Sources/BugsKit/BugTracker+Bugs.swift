import EditingSession
import Foundation
import OpenCoreData

extension BugTracker {
    /// What to do with a bug's screenshot when editing it.
    public enum ScreenshotChange: Sendable, Hashable {
        /// Leave it as it is.
        case keep
        /// Remove it.
        case remove
        /// Replace it (or add one) with these bytes, which must be a PNG or a JPEG.
        case replace(Data)
    }

    // MARK: - Reading

    /// A project's bugs, newest first (see `BugListController`).
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown project.
    public func bugs(of project: Reference<Project>) throws -> [BugRow] {
        try session.read { _ in
            let controller = try BugListController(project: session.object(project))
            try controller.performFetch()
            return try (controller.fetchedObjects ?? []).map { try BugRow($0, session: session) }
        }
    }

    /// A live list of a project's bugs for a page, on the session's context, fetched.
    /// Use it, and set its delegate, on the context's queue (inside `session.read`).
    public func makeBugListController(for project: Reference<Project>) throws -> BugListController {
        try session.read { _ in
            let controller = try BugListController(project: session.object(project))
            try controller.performFetch()
            return controller
        }
    }

    /// The bug `reference` names.
    public func bug(_ reference: Reference<Bug>) throws -> BugRow {
        try session.read { _ in try BugRow(session.object(reference), session: session) }
    }

    /// A bug's screenshot, with the type to serve it with; nil when it has none.
    ///
    /// - Throws: `BugTrackerError.screenshotNotAnImage` if the stored bytes are not a PNG
    ///   or a JPEG (written around the tracker): they are never handed out as an image.
    public func screenshot(of reference: Reference<Bug>) throws -> Screenshot? {
        try session.read { _ in
            try session.object(reference).screenshot.map { data throws(BugTrackerError) in try Screenshot(data: data) }
        }
    }

    // MARK: - Actions

    /// Files a bug in a project, as the action “Add Bug “title””; its `created` date is
    /// now.
    ///
    /// - Parameters:
    ///   - title: 1 to `Limits.titleLength` characters, one line (trimmed).
    ///   - details: up to `Limits.detailsLength` characters, or nil.
    ///   - screenshot: a PNG or JPEG of at most `Screenshot.maximumSize` bytes, or nil.
    /// - Throws: `BugTrackerError` for bad input, `EditingSessionError.notFound` for an
    ///   unknown project; nothing is added then.
    @discardableResult
    public func addBug(to project: Reference<Project>, title: String, details: String? = nil, screenshot: Data? = nil) throws -> BugRow {
        let title = try Self.validatedLine(title, .title, limit: Limits.titleLength)
        let details = try Self.validatedDetails(details)
        let screenshot = try screenshot.map { data throws(BugTrackerError) in try Screenshot(data: data) }
        return try session.perform({ context in
            let owner = try session.object(project)
            let bug = Bug(context: context)
            bug.title = title
            bug.details = details
            bug.screenshot = screenshot?.data
            bug.project = owner
            return bug
        }, named: { "Add Bug “\($0.title)”" }, saved: { try BugRow($0, session: session) })
    }

    /// Changes a bug's title, details and/or screenshot, as the action “Edit Bug “new
    /// title””.
    ///
    /// - Parameters:
    ///   - title: the new title, or nil to keep it.
    ///   - details: the new details, `""` to remove them, or nil to keep them.
    ///   - screenshot: keep, remove or replace the screenshot.
    /// - Throws: as `addBug(to:title:details:screenshot:)`.
    @discardableResult
    public func editBug(_ reference: Reference<Bug>, title: String? = nil, details: String? = nil, screenshot: ScreenshotChange = .keep) throws -> BugRow {
        let title = try title.map { try Self.validatedLine($0, .title, limit: Limits.titleLength) }
        let details = try details.map { try Self.validatedDetails($0) }
        let image: Data??
        switch screenshot {
        case .keep: image = nil
        case .remove: image = .some(nil)
        case .replace(let data): image = .some(try Screenshot(data: data).data)
        }
        return try session.perform({ _ in
            let bug = try session.object(reference)
            if let title, bug.title != title { bug.title = title }
            if let details, bug.details != details { bug.details = details }
            if let image, bug.screenshot != image { bug.screenshot = image }
            return bug
        }, named: { "Edit Bug “\($0.title)”" }, saved: { try BugRow($0, session: session) })
    }

    /// Deletes a bug, as the action “Delete Bug “title””.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown reference.
    public func deleteBug(_ reference: Reference<Bug>) throws {
        try session.perform({ context in
            let bug = try session.object(reference)
            let title = bug.title
            context.delete(bug)
            return title
        }, named: { "Delete Bug “\($0)”" })
    }
}
