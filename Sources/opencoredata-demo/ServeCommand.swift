import ArgumentParser
import DemoStore
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import WebApp

/// `opencoredata-demo serve` (and `opencoredata-demo` with no command): both apps as live
/// web pages on the store, until Ctrl+C (SIGINT) or SIGTERM, then saved and stopped.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve both apps as live web pages (the default command).",
        discussion: """
            Prints the address to open (http://127.0.0.1:8080 by default), adds a few sample \
            lists to an empty store, and serves until Ctrl+C or SIGTERM; then it saves what \
            the pages' contexts hold and exits. Binding beyond loopback (--host 0.0.0.0) \
            prints a warning: the pages have no login.
            """
    )

    @Option(name: .long, help: ArgumentHelp(
        "The SQLite store file to use, created with its folder if missing.",
        discussion: "Default: $XDG_DATA_HOME/opencoredata-demo/Demo.sqlite, or ~/.local/share/opencoredata-demo/Demo.sqlite.",
        valueName: "path"
    ))
    var store: String?

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp("Seconds to wait while another process holds the store's write lock (default 5).", valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        if let timeout, !(timeout >= 0 && timeout <= 3600) { throw ValidationError("--timeout takes 0 to 3600 seconds.") }
        guard !host.isEmpty else { throw ValidationError("--host needs an address.") }
    }

    func run() async throws {
        var logger = Logger(label: "opencoredata-demo")
        logger.logLevel = .notice
        let store = try DemoFailure.reporting {
            let store = try DemoStore.open(at: self.store.map { URL(fileURLWithPath: $0) }, timeout: timeout)
            try SampleLists.add(to: store)
            return store
        }
        if !WebAppConfiguration.isLoopback(host) {
            FileHandle.standardError.write(Data("Warning: listening on \(host) makes the apps reachable from other machines, and they have no login.\n".utf8))
        }
        let web = try await WebApp(store: store, configuration: WebAppConfiguration(host: host, port: port), logger: logger)
        let shown = host.contains(":") ? "[\(host)]" : host
        let application = web.application { port in
            FileHandle.standardOutput.write(Data("Serving on http://\(shown):\(port)  (Ctrl+C saves and stops)\n".utf8))
        }
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            FileHandle.standardError.write(Data("Error: cannot listen on \(shown):\(port): the port is in use (another server?). Choose another with --port.\n".utf8))
            throw DemoFailure.serverFailed
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            FileHandle.standardError.write(Data("Error: cannot listen on \(host): it is not an address of this machine.\n".utf8))
            throw DemoFailure.serverFailed
        } catch {
            FileHandle.standardError.write(Data("Error: the server stopped: \(error)\n".utf8))
            web.saveAll()
            throw DemoFailure.serverFailed
        }
        let failures = web.saveAll()
        guard failures.isEmpty else {
            FileHandle.standardError.write(Data("Error: \(failures.count) tab(s) could not be saved; the log above says why.\n".utf8))
            throw DemoFailure.storeFailed
        }
        FileHandle.standardOutput.write(Data("Saved; stopped.\n".utf8))
    }
}
