import Foundation
import OpenCoreDataTestSupport
import Testing

/// The README's main command, `opencoredata-demo` with no command (`serve`), as a child
/// process: it serves both apps, saves and stops on Ctrl+C or SIGTERM, and every way it can
/// fail to start is one sentence and its exit code.
@Suite struct ServeCommandTests {
    /// A server started as a child process, and the port it printed.
    struct Server {
        let child: ChildProcess
        let port: Int

        /// Starts `cli`'s binary with `arguments` and waits for the line with its address.
        init(_ cli: DemoCLI, _ arguments: [String], addsStore: Bool = true) throws {
            child = try addsStore
                ? cli.start(arguments)
                : ChildProcess(cli.binary, arguments, environment: ["XDG_DATA_HOME": cli.dataHome.path])
            let line = child.waitForLine(timeout: 60) { $0.hasPrefix("Serving on http://") }
            let served = try #require(line, "the server printed no address; stderr: \(child.standardError)")
            let address = served.text.dropFirst("Serving on http://".count).prefix { $0 != " " }
            port = try #require(address.split(separator: ":").last.flatMap { Int($0) }, "\(served.text)")
        }

        /// GETs `path`, sending `cookie`; the whole answer, headers and body.
        func get(_ path: String, cookie: String? = nil) async throws -> String {
            let cookieLine = cookie.map { "Cookie: \($0)\r\n" } ?? ""
            return try await RawHTTP.exchange(port: port, request: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(cookieLine)Connection: close\r\n\r\n")
        }

        /// POSTs the URL-encoded `body` to `path` with `cookie`; the whole answer.
        func post(_ path: String, _ body: String, cookie: String) async throws -> String {
            try await RawHTTP.exchange(port: port, request: "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        }

        /// Sends `signal` and waits for the exit.
        func stop(with signal: Int32) -> (output: [String], killed: Bool) {
            kill(child.processIdentifier, signal)
            let (lines, killed) = child.finish(timeout: 60)
            return (lines.map(\.text), killed)
        }
    }

    /// The first capture of `pattern` in `text`.
    static func first(_ pattern: String, in text: String) throws -> String {
        let match = try #require(text.firstMatch(of: try Regex(pattern)), "no \(pattern) in \(text.prefix(400))")
        return try #require(match.output[1].substring.map(String.init))
    }

    @Test func noCommandServesBothAppsOnTheDefaultStoreAndCtrlCSavesAndStops() async throws {
        let cli = try DemoCLI()
        let server = try Server(cli, ["--port", "0"], addsStore: false)
        let lists = try await server.get("/lists")
        #expect(lists.hasPrefix("HTTP/1.1 200"), "\(lists.prefix(200))")
        #expect(lists.contains(">Groceries</a>"), "an empty store gets the sample lists")
        let projects = try await server.get("/projects")
        #expect(projects.hasPrefix("HTTP/1.1 200"))

        // A form, as a browser without JavaScript sends it.
        let cookie = try Self.first(#"Set-Cookie: (ocd_session=[^;\r]+)"#, in: lists)
        let tab = try Self.first(#"data-tab="([^"]+)""#, in: lists)
        let csrf = try Self.first(#"data-csrf="([^"]+)""#, in: lists)
        let root = try Self.first(#"action="/lists/(\d+)/add""#, in: lists)
        let added = try await server.post("/lists/\(root)/add", "title=Saved+by+the+web&tab=\(tab)&csrf=\(csrf)", cookie: cookie)
        #expect(added.hasPrefix("HTTP/1.1 303"), "\(added.prefix(200))")

        let (output, killed) = server.stop(with: SIGINT)
        #expect(!killed, "Ctrl+C stops the server")
        #expect(server.child.exitStatus == 0, "stderr: \(server.child.standardError)")
        #expect(output.last == "Saved; stopped.")
        let store = cli.dataHome.appendingPathComponent("opencoredata-demo/Demo.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path), "the default store is in $XDG_DATA_HOME")
        let titles = try cli.run(["lists", "ls", "--json"], addsStore: false).json(DemoJSON.List.self).items.map(\.title)
        #expect(titles == ["Groceries", "Work", "Books", "Saved by the web"])
    }

    @Test func aStoreInAMissingFolderIsCreatedAndSIGTERMStops() throws {
        let cli = try DemoCLI()
        let store = cli.folder.file("new/folder/Demo.sqlite")
        let server = try Server(cli, ["serve", "--port", "0", "--store", store.path], addsStore: false)
        #expect(FileManager.default.fileExists(atPath: store.path))
        let (output, killed) = server.stop(with: SIGTERM)
        #expect(!killed && server.child.exitStatus == 0, "stderr: \(server.child.standardError)")
        #expect(output.last == "Saved; stopped.")
    }

    @Test func aStoreThatCannotBeCreatedIsOneSentenceAndExit73() throws {
        let cli = try DemoCLI()
        let file = try cli.folder.write("not a folder", to: "file")
        let run = try cli.run(["serve", "--port", "0", "--store", file.appendingPathComponent("Demo.sqlite").path], addsStore: false)
        #expect(run.status == 73, "\(run)")
        #expect(run.errors.hasPrefix("Error: ") && run.errors.split(separator: "\n").count == 1, "\(run)")
        #expect(!run.output.contains("Serving"))
    }

    @Test func aPortInUseIsOneSentenceAndExit70() throws {
        let cli = try DemoCLI()
        let first = try Server(cli, ["serve", "--port", "0"])
        let second = try cli.run(["serve", "--port", String(first.port), "--store", cli.folder.file("Other.sqlite").path], addsStore: false)
        #expect(second.status == 70, "\(second)")
        #expect(second.errors == "Error: cannot listen on 127.0.0.1:\(first.port): the port is in use (another server?). Choose another with --port.\n")
        _ = first.stop(with: SIGTERM)
        #expect(first.child.exitStatus == 0)
    }

    @Test func anAddressNotOfThisMachineIsOneSentenceAndExit70() throws {
        let cli = try DemoCLI()
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
        let run = try cli.run(["serve", "--host", "192.0.2.1", "--port", "0"])
        #expect(run.status == 70, "\(run)")
        #expect(run.errors.contains("Warning: listening on 192.0.2.1"), "\(run)")
        #expect(run.errors.hasSuffix("Error: cannot listen on 192.0.2.1: it is not an address of this machine.\n"), "\(run)")
    }

    @Test func listeningBeyondLoopbackWarns() throws {
        let cli = try DemoCLI()
        let server = try Server(cli, ["serve", "--host", "0.0.0.0", "--port", "0"])
        _ = server.stop(with: SIGTERM)
        #expect(server.child.exitStatus == 0)
        #expect(server.child.standardError.hasPrefix("Warning: listening on 0.0.0.0 makes the apps reachable from other machines"))
    }

    @Test(arguments: [["--port", "70000"], ["--port", "-1"], ["--host", ""], ["--timeout", "-3"]])
    func badOptionsAreUsageErrors(arguments: [String]) throws {
        let run = try DemoCLI().run(["serve"] + arguments)
        #expect(run.status == 64, "\(run)")
        #expect(!run.output.contains("Serving"))
    }
}
