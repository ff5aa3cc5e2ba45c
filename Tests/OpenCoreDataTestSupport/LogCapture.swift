import Foundation
import Logging

/// What the library logs through swift-log, for tests that assert a warning was logged.
///
/// swift-log takes one `LoggingSystem.bootstrap` a process: every test goes through
/// `LogCapture.shared`, which bootstraps once, keeping the usual standard-error output. A
/// logger made before that (a `static let` one) keeps the default handler, so the code
/// under test makes its `Logger` where it logs.
public final class LogCapture: @unchecked Sendable {
    // @unchecked Sendable: `entries` is read and written under `lock` only.

    /// One logged message.
    public struct Entry: Sendable {
        public let label: String
        /// The level's name ("warning", "error", …).
        public let level: String
        public let message: String
    }

    public static let shared = LogCapture()
    private let lock = NSLock()
    private var entries: [Entry] = []

    private init() {
        LoggingSystem.bootstrap { [self] label in
            MultiplexLogHandler([StreamLogHandler.standardError(label: label), Handler(label: label, capture: self)])
        }
    }

    /// The messages logged so far whose text contains `text` (tests use a path of their
    /// own, so that parallel tests do not see each other's).
    public func entries(containing text: String) -> [Entry] {
        lock.withLock { entries.filter { $0.message.contains(text) } }
    }

    private func append(_ entry: Entry) { lock.withLock { entries.append(entry) } }

    private struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var logLevel = Logger.Level.trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(Entry(label: label, level: event.level.rawValue, message: event.message.description))
        }
    }
}
