import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import ServiceLifecycle
import Testing

/// App-state saving: a child process (`ocd-torture dal-app-state`) changes its main
/// context without saving, reports that its handlers are armed (a Dispatch signal source
/// registers asynchronously: a signal sent before is lost), and is sent a signal or exits.
/// The store is then read back; a signalled child must have ended by that very signal.
@Suite("App-state saving")
struct AppStateSavingTests {
    private static func runChild(setting: String, store: URL, signal: Int32?) throws -> (titles: [String], signal: Int32?, status: Int32) {
        let binary = try #require(TortureBinary.locate().url, "ocd-torture is not built")
        let child = try ChildProcess(binary, ["dal-app-state", "--store", store.path, "--call", setting, "--seconds", "20"])
        let armed = child.waitForLine(timeout: 10) { $0 == "armed" }
        try #require(armed != nil, "the child never armed: \(child.output.map(\.text)) \(child.standardError)")
        if let signal { kill(child.processIdentifier, signal) }
        let (lines, killed) = child.finish(timeout: 10)
        #expect(!killed, "the child did not end by itself: \(lines.map(\.text)) \(child.standardError)")
        let titles = try SQLiteInspector(store).strings("SELECT ZTITLE FROM ZITEM ORDER BY Z_PK")
        return (titles, child.endedBySignal ? child.exitStatus : nil, child.exitStatus)
    }

    /// On SIGTERM, SIGINT and SIGHUP the pending changes are saved, then the process
    /// ends as the signal would have ended it.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalsSaveAndReRaise(_ signal: Int32) throws {
        let folder = TemporaryFolder()
        let result = try Self.runChild(setting: "signals", store: folder.file(), signal: signal)
        #expect(result.titles == ["unsaved"])
        #expect(result.signal == signal)
    }

    /// `.exitOnly`: saved at `exit()`.
    @Test func exitOnlySavesAtExit() throws {
        let folder = TemporaryFolder()
        let result = try Self.runChild(setting: "exit", store: folder.file(), signal: nil)
        #expect(result.titles == ["unsaved"])
        #expect(result.signal == nil && result.status == 0)
    }

    /// `.off`: nothing saved; SIGTERM ends the process by its default action.
    @Test func offSavesNothing() throws {
        let folder = TemporaryFolder()
        let result = try Self.runChild(setting: "off", store: folder.file(), signal: SIGTERM)
        #expect(result.titles.isEmpty)
        #expect(result.signal == SIGTERM)
    }

    /// The explicit lifecycle events save the main and root contexts' pending changes.
    @Test(arguments: ["willTerminate", "didEnterBackground"])
    func lifecycleEventsSave(_ event: String) async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        _ = try await dal.read { context in User.create(in: context).firstname = "pending in main" }
        #expect(try fixture.usersOnDisk().isEmpty)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                if event == "willTerminate" { dal.applicationWillTerminate() } else { dal.applicationDidEnterBackground() }
                done.resume()
            }
        }
        #expect(try fixture.usersOnDisk() == ["pending in main"])
        #expect(dal.errors.isEmpty)
    }

    /// The swift-service-lifecycle `Service` saves on graceful shutdown.
    @Test func lifecycleServiceSavesOnGracefulShutdown() async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        _ = try await dal.read { context in User.create(in: context).firstname = "pending at shutdown" }
        let group = ServiceGroup(services: [dal.lifecycleService])
        let running = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(try fixture.usersOnDisk().isEmpty)
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(try fixture.usersOnDisk() == ["pending at shutdown"])
    }
}
