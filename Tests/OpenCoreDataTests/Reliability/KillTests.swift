import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// kill -9 at random instants of a child process writing the store (RELIABILITY.md §5.1):
/// after each kill the store reopens with a fresh coordinator, `integrity_check` is ok,
/// every acknowledged save is there and no save is there in part.
@Suite(.serialized) struct KillTests {
    @Test func killedSaveLoopsLoseNoAcknowledgedBatchAndLeaveNoPartialOne() throws {
        let helper = try KillRound.helper()
        var random = SeededRandom.fromEnvironment(for: "KillTests.saveLoop")
        let folder = TemporaryFolder()
        let batchSize = 50
        let (_, timing) = try helper.measure(["save-loop", "--store", folder.file("calibration.sqlite").path, "--batch-size", "\(batchSize)", "--limit", "10"])
        let kills = KillBudget.saveLoop
        var previous: Int64 = 0 // the last batch of the current store
        var batches: Int64 = 0
        var killedInRun = 0
        var stores = 0
        for round in 1...kills {
            // A new store every 40 rounds keeps each check short in long runs.
            let path = folder.file("save-loop-\(round / 40).sqlite").path
            if round % 40 == 0 || round == 1 {
                // Created here: kills during creation are the next test's subject.
                let stack = try TortureStack(path: path)
                stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
                previous = 0
                stores += 1
            }
            let arguments = ["save-loop", "--store", path, "--batch-size", "\(batchSize)"]
            var plan = timing.randomPlan(saves: 8, using: &random)
            if plan.anchor == "ready" { plan.delay = .random(in: 0...0.3, using: &random) }
            let outcome = try helper.run(arguments, plan: plan)
            if outcome.killed { killedInRun += 1 }
            if let error = outcome.lines.first(where: { $0.hasPrefix("error") }) {
                Issue.record("round \(round) (\(plan)): the helper failed: \(error)")
            }
            let acknowledged = max(previous, outcome.acks().compactMap(Int64.init).max() ?? 0)
            try TortureChecks.reopenAndCheckIntegrity(path)
            let last = try TortureChecks.wholeBatches(path, batchSize: batchSize)
            #expect(last >= acknowledged, "round \(round) (\(plan)): batch \(acknowledged) was acknowledged, the store ends at \(last)")
            // At most the batch whose ack the kill cut off is there unacknowledged.
            #expect(last <= acknowledged + 1, "round \(round) (\(plan)): the store has batch \(last), acknowledged \(acknowledged)")
            batches += last - previous
            previous = last
        }
        print("KillTests.saveLoop: \(kills) rounds, \(killedInRun) killed mid-run, \(batches) whole batches of \(batchSize) in \(stores) stores, save window \(Int(timing.save * 1_000_000)) µs")
    }

    @Test func aStoreKilledWhileBeingCreatedOpensAfterwards() throws {
        let helper = try KillRound.helper()
        var random = SeededRandom.fromEnvironment(for: "KillTests.create")
        let folder = TemporaryFolder()
        let (_, timing) = try helper.measure(["create", "--store", folder.file("calibration.sqlite").path])
        let kills = KillBudget.perOtherMode
        var killedInRun = 0
        var leftFiles = 0
        var refused = 0
        for round in 1...kills {
            let path = folder.file("created-\(round).sqlite").path
            let plan = timing.randomPlan(using: &random)
            let outcome = try helper.run(["create", "--store", path], plan: plan)
            if outcome.killed { killedInRun += 1 }
            if FileManager.default.fileExists(atPath: path) { leftFiles += 1 }
            do {
                try TortureChecks.reopenAndCheckIntegrity(path)
            } catch {
                Issue.record("round \(round) (\(plan)): the file the kill left does not open: \(error)")
                refused += 1
                continue
            }
            // The store is usable: a save, then a fresh coordinator reads it back.
            try writeOneRecord(path)
            #expect(try StoreOracle(path: path).integer("SELECT count(*) FROM ZRECORD") == 1, "round \(round) (\(plan))")
        }
        print("KillTests.create: \(kills) rounds, \(killedInRun) killed mid-run, \(leftFiles) left a file, \(refused) refused to open")
    }

    private func writeOneRecord(_ path: String) throws {
        let stack = try TortureStack(path: path)
        try stack.context.performAndWait {
            _ = stack.insert("Record", ["batch": Int64(1), "position": Int64(0), "checksum": TortureModel.checksum(batch: 1, position: 0)])
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
    }
}
