import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Another editor's saves, merged into a session: seen at once, never undone by it.
@Suite struct EditingSessionMergingTests {
    @Test func aMergedSaveIsNotInTheUndoHistory() throws {
        let folder = TemporaryFolder()
        let session = try Counter.session(.sqlite, at: folder.file())
        let milk = try #require(try session.addCounter("Milk"))
        // Another editor on the same coordinator counts the milk and adds bread.
        let otherContext = ManagedObjectContext(concurrencyType: .privateQueue)
        otherContext.persistentStoreCoordinator = session.context.performAndWait { session.context.persistentStoreCoordinator }
        let other = EditingSession(context: otherContext)
        let saved = Notifications()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification, object: other.context, queue: nil) { saved.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        try other.count(milk, by: 5)
        let bread = try #require(try other.addCounter("Bread"))
        for notification in saved.all { session.mergeChanges(fromContextDidSave: notification) }

        #expect(try session.value(of: milk) == 5)
        #expect(try session.value(of: bread) == 0)
        #expect(session.undoActionName == "Add “Milk”", "the merge added no undo step")
        // Undoing this session's own action leaves the other editor's bread alone.
        #expect(try session.undo() == "Add “Milk”")
        #expect(try other.value(of: bread) == 0)
        #expect(session.canUndo == false)
    }

    /// Notifications collected from the posting thread.
    final class Notifications: @unchecked Sendable {
        // @unchecked Sendable: guarded by `lock`.
        private let lock = NSLock()
        private var notifications: [Notification] = []
        func append(_ notification: Notification) { lock.withLock { notifications.append(notification) } }
        var all: [Notification] { lock.withLock { notifications } }
    }
}
