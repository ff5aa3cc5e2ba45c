import Foundation

/// A child process whose standard output is read line by line, each line stamped with
/// the time it arrived. The child is always killed and reaped: by `finish()`, or when
/// the value is released.
package final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: `lines` and `endOfOutput` are only touched under `condition`.

    package struct Line {
        package let text: String
        package let time: Date
    }

    private let process = Process()
    private let condition = NSCondition()
    private var lines: [Line] = []
    private var endOfOutput = false

    package init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading
        let reader = Thread { [self] in read(output) }
        reader.start()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func read(_ output: FileHandle) {
        var pending = Data()
        while true {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                condition.withLock {
                    lines.append(Line(text: text, time: Date()))
                    condition.broadcast()
                }
            }
        }
        // A partial last line was cut by the kill: it was never acknowledged.
        condition.withLock {
            endOfOutput = true
            condition.broadcast()
        }
    }

    package var processIdentifier: Int32 { process.processIdentifier }

    /// The complete lines read so far.
    package var output: [Line] { condition.withLock { lines } }

    /// Waits until the `occurrence`-th line (1-based) satisfying `matches` arrives; nil if
    /// the output ends or `timeout` passes first.
    package func waitForLine(occurrence: Int = 1, timeout: TimeInterval, _ matches: (String) -> Bool) -> Line? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            var seen = 0
            for line in lines where matches(line.text) {
                seen += 1
                if seen == occurrence { return line }
            }
            if endOfOutput || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Sends SIGKILL if the child still runs; returns whether it did.
    @discardableResult
    package func killNow() -> Bool {
        guard process.isRunning else { return false }
        return kill(process.processIdentifier, SIGKILL) == 0
    }

    /// Waits up to `timeout` for the child to exit on its own, then kills it; reaps it and
    /// reads its output to the end. Returns the lines and whether it died by SIGKILL.
    package func finish(timeout: TimeInterval) -> (lines: [Line], killed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        killNow()
        process.waitUntilExit()
        condition.withLock {
            let readDeadline = Date().addingTimeInterval(10)
            while !endOfOutput, condition.wait(until: readDeadline) {}
        }
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return (output, killed)
    }

    package var exitStatus: Int32 { process.terminationStatus }
}
