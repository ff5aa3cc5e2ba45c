import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A long-running context with a change-set consumer holds only what the last event and
/// the pending changes need: its peak memory does not grow with the number of events.
/// Measured in a child process (`ocd-torture edit-events`), so no other test's memory
/// is counted.
@Suite struct ChangeLedgerMemoryTests {
    private func peakKiB(events: Int, objects: Int) throws -> Int {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let outcome = try helper.run(["edit-events", "--store", folder.file().path, "--batch-size", "\(objects)", "--limit", "\(events)"],
                                     plan: nil, timeout: 300)
        #expect(outcome.exitStatus == 0, "edit-events failed: \(outcome.lines)")
        #expect(outcome.lines.contains("events \(events)"), "every event should report each object changed: \(outcome.lines)")
        let peak = outcome.lines.first { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) }
        return try #require(peak)
    }

    @Test func peakMemoryDoesNotGrowWithTheNumberOfEvents() throws {
        let objects = 2_000
        let few = try peakKiB(events: 5, objects: objects)
        let many = try peakKiB(events: 100, objects: objects)  // 200,000 edits
        // Kept snapshots or change sets would add about 0.5 KiB per edit (≈ 95 MiB here).
        #expect(many <= few + 8 * 1024, "peak \(many) KiB after 100 events against \(few) KiB after 5")
    }
}
