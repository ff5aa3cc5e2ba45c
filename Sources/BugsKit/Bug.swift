import Foundation
import OpenCoreData

/// A bug of a project: a title, optional details and screenshot, and when it was filed.
///
/// Every bug belongs to a project (the model's `project` is required: a save with a bug
/// without one fails validation), and goes when its project is deleted.
public final class Bug: ManagedObject {
    /// A one-line summary.
    @Managed public var title: String
    /// A longer description, or nil.
    @Managed public var details: String?
    /// A PNG or JPEG image, or nil; `BugTracker` accepts only those (see `Screenshot`).
    @Managed public var screenshot: Data?
    /// When the bug was filed; a project's bugs are listed newest first.
    @Managed public var created: Date
    /// The project the bug belongs to (required when saved).
    @Managed public var project: Project?

    /// A new bug is filed now.
    override public func awakeFromInsert() {
        super.awakeFromInsert()
        created = Date()
    }
}
