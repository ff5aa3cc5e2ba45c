import Foundation
import Testing
import OpenCoreDataTestSupport

/// Runs the `ocd-torture` helper and SIGKILLs it at a chosen instant.
struct KillRound {
    /// When to kill: `delay` seconds after the `occurrence`-th line equal to (or
    /// starting with) `anchor`.
    struct Plan: CustomStringConvertible {
        var anchor: String
        var occurrence = 1
        var delay: TimeInterval
        var description: String { "\(String(format: "%.2f", delay * 1000)) ms after \(anchor) #\(occurrence)" }
    }

    /// How long a run takes without a kill: from `ready` to its end, and the longest
    /// `saving` → `ack` window.
    struct Timing {
        var run: TimeInterval
        var save: TimeInterval

        /// Half the kills land anywhere in the run, half inside a save.
        func randomPlan(saves: Int = 1, using random: inout SeededRandom) -> Plan {
            if random.chance(0.5) {
                return Plan(anchor: "ready", delay: .random(in: 0...(run * 1.2), using: &random))
            }
            return Plan(anchor: "saving", occurrence: .random(in: 1...saves, using: &random), delay: .random(in: 0...(save * 1.2), using: &random))
        }
    }

    struct Outcome {
        var lines: [String]
        /// Whether SIGKILL ended it (not a normal end before the kill).
        var killed: Bool
        var exitStatus: Int32
        func acks(_ prefix: String = "ack ") -> [String] { lines.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } }
    }

    let binary: URL

    /// The helper; when it cannot be found the test is skipped (cancelled) with a message
    /// saying where it was looked for.
    static func helper() throws -> KillRound {
        let (url, searched) = TortureBinary.locate()
        guard let url else {
            let message = "SKIPPED: ocd-torture was not found, so the process tests cannot run; searched: \(searched.joined(separator: ", ")). Build it with `swift build --product ocd-torture` or set OCD_TORTURE."
            print(message)
            try Test.cancel(Comment(rawValue: message))
        }
        return KillRound(binary: url)
    }

    /// Runs `arguments`, kills the child as `plan` says (or lets it finish without one).
    func run(_ arguments: [String], plan: Plan?, timeout: TimeInterval = 60) throws -> Outcome {
        let child = try ChildProcess(binary, arguments)
        if let plan {
            let anchor = child.waitForLine(occurrence: plan.occurrence, timeout: timeout) { $0 == plan.anchor || $0.hasPrefix(plan.anchor + " ") }
            if anchor != nil {
                if plan.delay > 0 { usleep(UInt32(plan.delay * 1_000_000)) }
                child.killNow()
            }
        }
        let (lines, killed) = child.finish(timeout: timeout)
        return Outcome(lines: lines.map(\.text), killed: killed, exitStatus: child.exitStatus)
    }

    /// Runs `arguments` to the end and measures it.
    func measure(_ arguments: [String]) throws -> (Outcome, Timing) {
        let child = try ChildProcess(binary, arguments)
        let (lines, killed) = child.finish(timeout: 60)
        let end = Date()
        let ready = lines.first { $0.text == "ready" }?.time ?? end
        var save: TimeInterval = 0
        var saving: Date?
        for line in lines {
            if line.text == "saving" { saving = line.time }
            if line.text.hasPrefix("ack"), let start = saving { save = max(save, line.time.timeIntervalSince(start)) }
        }
        let outcome = Outcome(lines: lines.map(\.text), killed: killed, exitStatus: child.exitStatus)
        return (outcome, Timing(run: end.timeIntervalSince(ready), save: max(save, 0.000_5)))
    }
}

extension ProcessInfo {
    /// An integer from the environment, or `fallback`.
    static func integer(_ name: String, default fallback: Int) -> Int {
        processInfo.environment[name].flatMap(Int.init) ?? fallback
    }
}
