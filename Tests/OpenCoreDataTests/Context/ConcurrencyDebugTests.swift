import Foundation
import Testing
import OpenCoreDataTestSupport

/// `OPENCOREDATA_CONCURRENCY_DEBUG=1` (Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`):
/// a context used, or an object's property read, off the context's queue traps with a
/// message naming the context and the call; correct use runs clean with the switch on.
/// Each case runs `ocd-torture` in a child process (the switch is read once per process).
@Suite struct ConcurrencyDebugTests {
    static let environment = ["OPENCOREDATA_CONCURRENCY_DEBUG": "1"]

    @Test(arguments: ["fetch", "save", "insert", "delete", "hasChanges", "insertedObjects", "property"])
    func useOffTheQueueTrapsNamingTheContextAndTheCall(call: String) throws {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let child = try ChildProcess(helper.binary, ["concurrency-misuse", "--store", folder.file().path, "--call", call], environment: Self.environment)
        let (lines, killed) = child.finish(timeout: 60)
        #expect(!killed, "the child hung")
        #expect(lines.map(\.text).contains("ack \(call)"), "the child did not get to the call: \(lines.map(\.text))")
        #expect(child.endedBySignal, "expected a trap, got exit status \(child.exitStatus)")
        let message = child.standardError
        #expect(message.contains("OpenCoreData concurrency violation"), "stderr: \(message)")
        #expect(message.contains("ManagedObjectContext \"torture\""), "stderr: \(message)")
        let named = switch call {
        case "property": "property access of Item"
        case "hasChanges", "insertedObjects": call
        default: "\(call)("
        }
        #expect(message.contains(named), "stderr does not name the call \(named): \(message)")
    }

    @Test func correctUsePassesWithTheSwitchOn() throws {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let child = try ChildProcess(helper.binary, ["concurrency-correct", "--store", folder.file().path], environment: Self.environment)
        let (lines, killed) = child.finish(timeout: 60)
        #expect(!killed && !child.endedBySignal && child.exitStatus == 0, "stderr: \(child.standardError)")
        #expect(lines.last?.text == "done")
    }

    @Test func withoutTheSwitchMisuseIsNotChecked() throws {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let child = try ChildProcess(helper.binary, ["concurrency-misuse", "--store", folder.file().path, "--call", "property"], environment: ["OPENCOREDATA_CONCURRENCY_DEBUG": "0"])
        let (lines, _) = child.finish(timeout: 60)
        #expect(!child.endedBySignal && child.exitStatus == 0, "stderr: \(child.standardError)")
        #expect(lines.last?.text == "done")
    }
}
