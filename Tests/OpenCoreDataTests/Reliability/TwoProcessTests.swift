import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Two processes on one store file (RELIABILITY.md §5.1 multi-process, §5.2): each reads
/// a counter, adds one and saves, retrying after `.mergeConflict`. No acknowledged
/// increment may be lost, and the conflicts must have been seen.
@Suite(.serialized) struct TwoProcessTests {
    /// Increments per process: `OCD_INCREMENTS` (150 by default).
    private var increments: Int { max(1, ProcessInfo.integer("OCD_INCREMENTS", default: 150)) }

    @Test func twoProcessesIncrementingOneCounterLoseNoAcknowledgedIncrement() throws {
        let helper = try KillRound.helper()
        let folder = TemporaryFolder()
        let path = folder.file().path
        try createCounter(path)
        let seconds = 100 + increments / 20
        let arguments = ["counter", "--store", path, "--limit", "\(increments)", "--think-us", "300", "--seconds", "\(seconds)"]
        let children = try (0..<2).map { _ in try ChildProcess(helper.binary, arguments) }
        let outcomes = children.map { $0.finish(timeout: TimeInterval(seconds + 30)) }
        let lines = outcomes.map { $0.lines.map(\.text) }
        let acknowledged = lines.flatMap { $0.filter { $0.hasPrefix("ack ") }.compactMap { Int64($0.dropFirst(4)) } }
        let conflicts = lines.reduce(0) { $0 + $1.filter { $0 == "conflict" }.count }
        let final = try StoreOracle(path: path).integer("SELECT ZVALUE FROM ZCOUNTER")
        print("TwoProcessTests: \(acknowledged.count) increments acknowledged, \(conflicts) conflicts, counter \(final)")
        for (index, output) in lines.enumerated() {
            #expect(output.last == "done", "process \(index) ended with \(output.last ?? "nothing"): \(output.filter { $0.hasPrefix("error") })")
        }
        #expect(acknowledged.count == 2 * increments)
        #expect(try StoreOracle(path: path).integrityCheck() == ["ok"])
        #expect(final == Int64(acknowledged.count), "acknowledged increments were lost")
        #expect(Set(acknowledged).count == acknowledged.count, "two processes acknowledged the same counter value")
        #expect(conflicts > 0, "no merge conflict was reported")
    }

    /// Both writers killed at random instants, again and again: every acknowledged
    /// increment survives, and at most one unacknowledged increment per kill is there.
    @Test func killedWritersLoseNoAcknowledgedIncrement() throws {
        let helper = try KillRound.helper()
        var random = SeededRandom.fromEnvironment(for: "TwoProcessTests.killedWriters")
        let folder = TemporaryFolder()
        let path = folder.file().path
        try createCounter(path)
        let rounds = max(1, KillBudget.total / 10)
        let arguments = ["counter", "--store", path, "--think-us", "300", "--seconds", "30"]
        var acknowledged: [Int64] = []
        var conflicts = 0
        var kills = 0
        for round in 1...rounds {
            let children = try (0..<2).map { _ in try ChildProcess(helper.binary, arguments) }
            for child in children {
                _ = child.waitForLine(timeout: 30) { $0.hasPrefix("ack ") }
                usleep(UInt32.random(in: 0...50_000, using: &random))
                if child.killNow() { kills += 1 }
            }
            let lines = children.flatMap { $0.finish(timeout: 30).lines.map(\.text) }
            acknowledged += lines.filter { $0.hasPrefix("ack ") }.compactMap { Int64($0.dropFirst(4)) }
            conflicts += lines.filter { $0 == "conflict" }.count
            try TortureChecks.reopenAndCheckIntegrity(path)
            let value = try StoreOracle(path: path).integer("SELECT ZVALUE FROM ZCOUNTER")
            #expect(value >= Int64(acknowledged.count), "round \(round): \(acknowledged.count) increments acknowledged, counter \(value)")
            #expect(value <= Int64(acknowledged.count + kills), "round \(round): counter \(value) exceeds \(acknowledged.count) acknowledged + \(kills) kills")
        }
        print("TwoProcessTests.killedWriters: \(rounds) rounds, \(kills) kills, \(acknowledged.count) increments acknowledged, \(conflicts) conflicts")
        #expect(Set(acknowledged).count == acknowledged.count, "two processes acknowledged the same counter value")
    }

    private func createCounter(_ path: String) throws {
        let stack = try TortureStack(path: path)
        try stack.context.performAndWait {
            _ = stack.insert("Counter", ["value": Int64(0)])
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
    }
}
