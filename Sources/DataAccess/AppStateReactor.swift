import Dispatch
import Foundation

/// The process-wide part of app-state saving: one `atexit` handler and one Dispatch signal
/// source per signal, shared by every live `DALService` that asked for them.
///
/// A signal source is installed with the signal's action set to ignore (Dispatch needs
/// that, or the default action would end the process first), and registers
/// asynchronously: `waitUntilArmed(timeout:)` tells when a signal will be caught. When the
/// last service that wants signals goes away, the sources are cancelled and the previous
/// actions restored.
final class AppStateReactor: @unchecked Sendable {
    // @unchecked Sendable: all state is under `lock`.

    static let shared = AppStateReactor()
    static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    private struct Entry {
        weak var service: DALService?
        let saving: AppStateSaving
    }

    private let lock = NSCondition()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var sources: [Int32: any DispatchSourceSignal] = [:]
    private var previousActions: [Int32: sigaction] = [:]
    private var armedCount = 0
    private var exitHandlerInstalled = false
    private let queue = DispatchQueue(label: "OpenCoreData.DataAccess.AppStateReactor")

    func register(_ service: DALService) {
        guard service.appStateSaving != .off else { return }
        lock.withLock {
            entries[ObjectIdentifier(service)] = Entry(service: service, saving: service.appStateSaving)
            if !exitHandlerInstalled {
                exitHandlerInstalled = true
                atexit { AppStateReactor.shared.save(for: nil) }
            }
            if service.appStateSaving == .signalsAndExit, sources.isEmpty { installSignalSources() }
        }
    }

    func unregister(_ service: DALService) {
        lock.withLock {
            entries[ObjectIdentifier(service)] = nil
            entries = entries.filter { $0.value.service != nil }
            if !entries.values.contains(where: { $0.saving == .signalsAndExit }) { removeSignalSources() }
        }
    }

    /// Whether the signal sources are registered (so a signal sent now is caught), waiting
    /// up to `timeout` for them.
    func waitUntilArmed(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return lock.withLock {
            while sources.isEmpty || armedCount < sources.count {
                if !lock.wait(until: deadline) { return !sources.isEmpty && armedCount >= sources.count }
            }
            return true
        }
    }

    // MARK: - Signals (under `lock`)

    private func installSignalSources() {
        for signalNumber in Self.signals {
            var current = sigaction()
            sigaction(signalNumber, nil, &current)
            // Someone else ignores or handles it already: theirs to decide.
            guard Self.isDefault(current) else { continue }
            previousActions[signalNumber] = current
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setRegistrationHandler { [self] in
                lock.withLock {
                    armedCount += 1
                    lock.broadcast()
                }
            }
            source.setEventHandler { [self] in received(signalNumber) }
            sources[signalNumber] = source
            source.resume()
        }
    }

    private func removeSignalSources() {
        for (signalNumber, source) in sources {
            source.cancel()
            if var previous = previousActions[signalNumber] { sigaction(signalNumber, &previous, nil) }
        }
        sources.removeAll()
        previousActions.removeAll()
        armedCount = 0
    }

    private static func isDefault(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
        return action.__sigaction_u.__sa_handler == nil
        #else
        return action.__sigaction_handler.sa_handler == nil
        #endif
    }

    /// A caught signal: save, restore the default action and re-raise it, so the process
    /// ends as the signal would have ended it.
    private func received(_ signalNumber: Int32) {
        save(for: signalNumber)
        signal(signalNumber, SIG_DFL)
        kill(getpid(), signalNumber)
    }

    // MARK: - Saving

    /// Saves every registered service that asked for it: on a signal, those saving on
    /// signals; at exit (`signalNumber` nil), all of them.
    private func save(for signalNumber: Int32?) {
        let services = lock.withLock { entries.values.compactMap { entry -> DALService? in
            signalNumber != nil && entry.saving != .signalsAndExit ? nil : entry.service
        } }
        for service in services { service.savePendingChanges(hopTimeout: 1) }
    }
}
