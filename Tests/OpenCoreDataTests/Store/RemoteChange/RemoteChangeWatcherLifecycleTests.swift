import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A watcher's life outside the usual add → start → stop order.
@Suite struct RemoteChangeWatcherLifecycleTests {
    /// `addPersistentStore` makes the watcher, publishes the store, then starts the
    /// watcher outside the lock: another thread can `remove(_:)` the store (it is in
    /// `persistentStores`) before `start()`. The watcher is then stopped before it ever
    /// started: `stop()` must still close its inotify descriptor (Dispatch runs no cancel
    /// handler of a source never activated, and traps on releasing one), and the late
    /// `start()` must start nothing.
    @Test func aWatcherStoppedBeforeItStartsClosesItsDescriptorAndStaysStopped() throws {
        let folder = TemporaryFolder()
        let (coordinator, context) = try RemoteChangeNotificationTests.stack(.sqlite, at: folder.file(), options: nil)
        let store = try #require(coordinator.persistentStores.first)
        let recorder = RemoteChangeRecorder(coordinator)
        do {
            let watcher = try RemoteChangeWatcher(store: store, coordinator: coordinator, forcePolling: false)
            #expect(watcher.detection == .fileEvents)
            #expect(FolderDescriptors.count(folder.url).inotifyWatches == 1)
            watcher.stop()
            #expect(FolderDescriptors.count(folder.url).inotifyWatches == 0, "stop() left the inotify descriptor open")
            watcher.start()
            let started = Date()
            try RemoteChangeNotificationTests.saveItem("after stop", in: context)
            #expect(recorder.arrivals(after: started, waiting: 0.3).isEmpty)
        }
        #expect(FolderDescriptors.count(folder.url).inotifyWatches == 0)
    }

    /// A watcher released without ever starting or stopping (its store failed to be
    /// added after it was made) closes its descriptor and does not trap.
    @Test func aWatcherReleasedUnstartedClosesItsDescriptor() throws {
        let folder = TemporaryFolder()
        let (coordinator, _) = try RemoteChangeNotificationTests.stack(.sqlite, at: folder.file(), options: nil)
        let store = try #require(coordinator.persistentStores.first)
        do {
            let watcher = try RemoteChangeWatcher(store: store, coordinator: coordinator, forcePolling: false)
            #expect(FolderDescriptors.count(folder.url).inotifyWatches == 1)
            _ = watcher
        }
        let left = FolderDescriptors.settle(folder.url) { $0.inotifyWatches == 0 }
        #expect(left.inotifyWatches == 0)
    }
}
