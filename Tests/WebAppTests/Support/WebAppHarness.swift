import DemoStore
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCoreDataTestSupport
@testable import WebApp

/// A web app on a new store in a temporary folder, for route tests.
struct WebAppHarness {
    let folder = TemporaryFolder()
    let store: DemoStore
    let app: WebApp

    /// `timeout` is the store's wait for another process's write lock.
    init(timeout: Double? = nil, configuration: WebAppConfiguration = .init()) async throws {
        store = try DemoStore.open(at: folder.file("Demo.sqlite"), timeout: timeout)
        app = try await WebApp(store: store, configuration: configuration)
    }

    /// Runs `body` against the app in process (Hummingbird's router test framework).
    func test<Value>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await Application(router: app.router()).test(.router, body)
    }

    /// Runs `body` against the app listening on a free port of 127.0.0.1.
    func live<Value>(_ body: @escaping @Sendable (Int) async throws -> Value) async throws -> Value {
        let application = Application(router: app.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await application.test(.live) { client in
            guard let port = client.port else { throw HarnessError.noPort }
            return try await body(port)
        }
    }

    enum HarnessError: Error { case noPort }
}
