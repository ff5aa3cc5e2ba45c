import DemoStore
import Foundation
import Hummingbird
import Logging

/// Both demo apps as live web pages on one store: the nested lists at `/lists` and the
/// project/bug tracker at `/projects`. Each browser tab edits through its own context and
/// undo history; each list on a page is a fetched results controller whose changes reach
/// the page as server-sent events.
///
/// ```swift
/// let app = try await WebApp(store: try DemoStore.open(), configuration: .init(port: 8080))
/// try await app.application().runService()
/// ```
public final class WebApp: Sendable {
    /// The store both apps edit.
    public let store: DemoStore
    public let configuration: WebAppConfiguration
    let pages: Pages
    let staticFiles: StaticFiles
    let sessions: BrowserSessions
    let remoteChanges: RemoteChanges
    let logger: Logger
    /// The history author of this server's saves (each tab adds its id).
    let author: String

    /// Loads the templates and static files and starts merging other processes' saves.
    ///
    /// - Throws: `WebAppStartError` when the target's resources are missing.
    public init(store: DemoStore, configuration: WebAppConfiguration = .init(), logger: Logger = Logger(label: "opencoredata-demo")) async throws {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        pages = try await Pages.load()
        staticFiles = try StaticFiles.load()
        sessions = BrowserSessions(maxSessions: configuration.maxSessions, maxTabsPerSession: configuration.maxTabsPerSession)
        author = "opencoredata-demo web \(ProcessInfo.processInfo.processIdentifier) \(CSRFToken.random(bytes: 4))"
        let sessions = sessions
        remoteChanges = RemoteChanges(store: store, logger: logger) { sessions.allTabs }
    }

    /// The routes of both apps behind the security middleware.
    public func router() -> Router<WebRequestContext> {
        let router = Router(context: WebRequestContext.self)
        router.addMiddleware {
            HostAllowList(host: configuration.host)
            SecurityHeaders()
            SessionMiddleware(sessions: sessions)
            ErrorPages(pages: pages, logger: logger)
        }
        staticFiles.register(on: router)
        HomeRoutes(app: self).register(on: router)
        UndoRoutes(app: self).register(on: router)
        ListsRoutes(app: self).register(on: router)
        ProjectsRoutes(app: self).register(on: router)
        BugsRoutes(app: self).register(on: router)
        return router
    }

    /// The server: binds `configuration.host`/`port`, calls `onServerRunning` with the
    /// port it got, and on graceful shutdown (SIGINT/SIGTERM through a service group)
    /// ends the event streams; call `saveAll()` after it returns.
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Saves whatever every tab's context still holds, and stops merging the history; for
    /// shutdown. Returns the errors of the saves that failed (each logged).
    @discardableResult
    public func saveAll() -> [any Error] {
        remoteChanges.stop()
        var failures: [any Error] = []
        for tab in sessions.allTabs {
            do { try tab.save() } catch {
                logger.error("A tab's changes could not be saved at shutdown: \(error)")
                failures.append(error)
            }
        }
        return failures
    }
}
