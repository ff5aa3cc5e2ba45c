import Foundation
import OpenCoreData

extension EditingSession {
    /// Brings the session's context up to date with a save made elsewhere — another
    /// context's did-save notification, or a history transaction's `objectIDNotification()`
    /// from another process — without putting it in the undo history: undo takes back
    /// this session's own actions only, never another editor's work. (Core Data registers
    /// a merge like any change; this is the documented way around it: pending changes
    /// processed, registration disabled for the merge.)
    public func mergeChanges(fromContextDidSave notification: Notification) {
        context.performAndWait {
            context.processPendingChanges()
            undoManager.disableUndoRegistration()
            defer { undoManager.enableUndoRegistration() }
            context.mergeChanges(fromContextDidSave: notification)
            context.processPendingChanges()
        }
    }
}
