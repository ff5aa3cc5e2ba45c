import Foundation
import OpenCoreDataTestSupport
import Testing

/// A command-line program that never drives the main queue (`ocd-torture dal-cli`):
/// reads on the main thread run inline and see every finished write; a read from a
/// background thread gives up with `.mainQueueUnavailable` (no deadlock) and its block
/// never runs; a write from a background thread needs no main queue.
@Suite("DALService in a program that never drives the main queue")
struct DALCommandLineTests {
    @Test func commandLineProgram() throws {
        let folder = TemporaryFolder()
        let binary = try #require(TortureBinary.locate().url, "ocd-torture is not built")
        let child = try ChildProcess(binary, ["dal-cli", "--store", folder.file().path])
        let (lines, killed) = child.finish(timeout: 20)
        #expect(!killed)
        #expect(child.exitStatus == 0, "\(child.standardError)")
        #expect(lines.map(\.text) == [
            "ready",
            "inline-read 1",
            "handled mainQueueUnavailable",
            "background-read mainQueueUnavailable",
            "background-write ok",
            "inline-read 2",
            "withdrawn-ran false",
            "done",
        ])
    }
}
