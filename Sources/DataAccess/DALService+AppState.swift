import Foundation
import OpenCoreData

extension DALService {
    // MARK: - App-state saving

    /// The host is about to end the process: saves the pending changes of the main and
    /// root contexts to disk (errors go to `handleError(_:)`). Waits up to
    /// `mainQueueTimeout` for the main queue when called off it.
    public func applicationWillTerminate() {
        savePendingChanges(hopTimeout: mainQueueTimeout)
    }

    /// The host went to the background (may be suspended or killed): saves as
    /// `applicationWillTerminate()` does.
    public func applicationDidEnterBackground() {
        savePendingChanges(hopTimeout: mainQueueTimeout)
    }

    /// Whether the signal handlers of `.signalsAndExit` are registered, waiting up to
    /// `timeout` for them: Dispatch registers a signal source asynchronously, and a
    /// signal sent before that is ignored. False for other settings.
    public func waitUntilSignalHandlersAreArmed(timeout: TimeInterval = 1) -> Bool {
        appStateSaving == .signalsAndExit && AppStateReactor.shared.waitUntilArmed(timeout: timeout)
    }

    /// Saves main → root → disk. The main context is saved on the main queue (inline when
    /// the caller may use it); when the main queue does not run within `hopTimeout`, the
    /// root is saved alone and `.mainQueueUnavailable` reported.
    @discardableResult
    func savePendingChanges(hopTimeout: TimeInterval) -> (any Error)? {
        let stack = stack
        do {
            try stack.waitUntilLoaded()
            try MainQueue.run(timeout: hopTimeout) {
                try self.commitLock.withLock {
                    try stack.main.performAndWait { if stack.main.hasChanges { try stack.main.save() } }
                    try self.saveRoot(of: stack)
                }
            }
            return nil
        } catch let error as CoreDataError where error.code == .mainQueueUnavailable {
            let rootError: (any Error)? = {
                do { try commitLock.withLock { try saveRoot(of: stack) } } catch { return error }
                return nil
            }()
            if let rootError { report(rootError) }
            return report(error)
        } catch {
            return report(error)
        }
    }
}
