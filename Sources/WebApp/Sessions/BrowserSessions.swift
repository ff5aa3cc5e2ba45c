import Synchronization

/// The server's browser sessions by cookie value. At most `maxSessions` are kept; the
/// least recently used one goes first.
final class BrowserSessions: Sendable {
    private let maxSessions: Int
    private let maxTabs: Int
    private let sessions = Mutex<(byID: [String: (session: BrowserSession, used: UInt64)], clock: UInt64)>(([:], 0))

    init(maxSessions: Int, maxTabsPerSession: Int) {
        self.maxSessions = max(1, maxSessions)
        maxTabs = maxTabsPerSession
    }

    /// The session whose cookie is `id`, or nil for an unknown (or forgotten) one.
    func session(_ id: String?) -> BrowserSession? {
        guard let id else { return nil }
        return sessions.withLock { state in
            guard let entry = state.byID[id] else { return nil }
            state.clock += 1
            state.byID[id] = (entry.session, state.clock)
            return entry.session
        }
    }

    /// A new session, remembered from now on.
    func makeSession() -> BrowserSession {
        let session = BrowserSession(maxTabs: maxTabs)
        sessions.withLock { state in
            state.clock += 1
            state.byID[session.id] = (session, state.clock)
            while state.byID.count > maxSessions, let oldest = state.byID.min(by: { $0.value.used < $1.value.used })?.key {
                state.byID[oldest] = nil
            }
        }
        return session
    }

    /// Every tab of every session.
    var allTabs: [Tab] { sessions.withLock { $0.byID.values.map(\.session) }.flatMap(\.allTabs) }
}
