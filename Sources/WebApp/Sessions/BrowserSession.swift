import DemoStore
import Foundation
import Synchronization

/// One browser's session (its cookie): the CSRF token its forms carry and its tabs, each
/// with its own context and undo history. At most `maxTabs` tabs are kept; the one used
/// least recently goes first (its undo history with it).
final class BrowserSession: Sendable {
    /// The cookie's value.
    let id: String
    /// The token every form and event stream of this session must carry.
    let csrfToken: String
    private let maxTabs: Int
    private let tabs = Mutex<[String: (tab: Tab, used: UInt64)]>([:])
    private let clock = Mutex<UInt64>(0)

    init(maxTabs: Int) {
        id = CSRFToken.random()
        csrfToken = CSRFToken.random()
        self.maxTabs = max(1, maxTabs)
    }

    /// Whether `text` could be a tab id this server made (hex, 16 bytes).
    static func isTabID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The tab `id` names, made on `store` when this session has none by that id (a new
    /// tab, or one forgotten since); a nil or malformed id makes a tab with a new id.
    ///
    /// - Throws: the store's error when the tab's context cannot read the root list.
    func tab(_ id: String?, store: DemoStore, author: String) throws -> Tab {
        let now = clock.withLock { value in value += 1; return value }
        if let id, Self.isTabID(id), let tab = tabs.withLock({ tabs -> Tab? in
            guard let entry = tabs[id] else { return nil }
            tabs[id] = (entry.tab, now)
            return entry.tab
        }) {
            return tab
        }
        let made = try Tab(id: id.flatMap { Self.isTabID($0) ? $0 : nil } ?? CSRFToken.random(bytes: 16), store: store, author: author)
        tabs.withLock { tabs in
            tabs[made.id] = (made, now)
            while tabs.count > maxTabs, let oldest = tabs.min(by: { $0.value.used < $1.value.used })?.key {
                tabs[oldest] = nil
            }
        }
        return made
    }

    /// The session's tabs now.
    var allTabs: [Tab] { tabs.withLock { $0.values.map(\.tab) } }
}
