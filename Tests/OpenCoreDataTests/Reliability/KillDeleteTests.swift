import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// kill -9 during large deletes: a context's cascade delete and a `BatchDeleteRequest`
/// are each all-or-nothing, whatever the instant of the kill.
@Suite(.serialized) struct KillDeleteTests {
    @Test func aKilledCascadeDeleteIsAllOrNothing() throws {
        try killDeletes(mode: "cascade", doomedRoots: 1, fanout: 40)
    }

    @Test func aKilledBatchDeleteIsAllOrNothing() throws {
        try killDeletes(mode: "batch-delete", doomedRoots: 20, fanout: 10)
    }

    /// Builds the fixture, then kills `mode` again and again, rebuilding whenever a
    /// delete went through.
    private func killDeletes(mode: String, doomedRoots: Int, fanout: Int) throws {
        let helper = try KillRound.helper()
        var random = SeededRandom.fromEnvironment(for: "KillDeleteTests.\(mode)")
        let folder = TemporaryFolder()
        let path = folder.file().path
        let arguments = [mode, "--store", path]
        let (doomed, kept) = try build(path, doomedRoots: doomedRoots, fanout: fanout)
        let (calibration, timing) = try helper.measure(arguments)
        #expect(calibration.acks() == ["deleted \(doomed)"], "an uninterrupted \(mode) deletes every doomed item")
        #expect(try TortureChecks.items(path, group: CascadeFixture.doomed) == 0)
        var applied = 0
        var notApplied = 0
        for round in 1...KillBudget.perOtherMode {
            if try TortureChecks.items(path, group: CascadeFixture.doomed) == 0 { try build(path, doomedRoots: doomedRoots, fanout: fanout, keptToo: false) }
            let plan = timing.randomPlan(using: &random)
            let outcome = try helper.run(arguments, plan: plan)
            if let error = outcome.lines.first(where: { $0.hasPrefix("error") }) {
                Issue.record("round \(round) (\(plan)): the helper failed: \(error)")
            }
            try TortureChecks.reopenAndCheckIntegrity(path)
            let left = try TortureChecks.items(path, group: CascadeFixture.doomed)
            #expect(left == 0 || left == doomed, "round \(round) (\(plan)): \(left) of \(doomed) doomed items left")
            #expect(try TortureChecks.items(path, group: CascadeFixture.kept) == kept, "round \(round) (\(plan))")
            #expect(try TortureChecks.orphans(path) == 0, "round \(round) (\(plan))")
            if !outcome.acks().isEmpty { #expect(left == 0, "round \(round) (\(plan)): acknowledged, yet \(left) items left") }
            if left == 0 { applied += 1 } else { notApplied += 1 }
        }
        print("KillDeleteTests.\(mode): \(applied + notApplied) kills, \(applied) found the delete applied, \(notApplied) found nothing deleted; run \(Int(timing.run * 1000)) ms, save \(Int(timing.save * 1000)) ms")
    }

    /// Saves the doomed trees (and the kept one); returns the item counts of each group.
    @discardableResult
    private func build(_ path: String, doomedRoots: Int, fanout: Int, keptToo: Bool = true) throws -> (doomed: Int, kept: Int) {
        let stack = try TortureStack(path: path)
        defer { stack.coordinator.persistentStores.forEach(stack.coordinator.remove) }
        let counts = try CascadeFixture.build(in: stack, doomedRoots: doomedRoots, fanout: fanout, keptToo: keptToo)
        return counts
    }
}
