import OpenCoreData

/// Why an `EditingSession` could not do what was asked. Store and model failures are
/// not wrapped: they arrive as the `CoreDataError` the framework threw.
public enum EditingSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No object of `entity` has the reference `reference`, or it was deleted.
    case notFound(entity: String, reference: String)
    /// Undoing or redoing `action` would overwrite what another editor saved since; the
    /// step was put back, and the session shows the store's current values.
    case conflict(action: String)

    public var description: String {
        switch self {
        case .notFound(let entity, let reference):
            "There is no \(entity) \(reference): it may have been deleted."
        case .conflict(let action):
            "Could not undo or redo “\(action)”: another editor changed the same data since. Nothing was changed."
        }
    }
}
