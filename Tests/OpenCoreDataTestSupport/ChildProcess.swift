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
    private var errorOutput = Data()
    private var endOfErrorOutput = false
    private let input = Pipe()

    /// Starts `executable`; `environment` entries are added to this process's environment.
    package init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardInput = input
        try process.run()
        let output = pipe.fileHandleForReading
        let reader = Thread { [self] in read(output) }
        reader.start()
        let errors = errorPipe.fileHandleForReading
        let errorReader = Thread { [self] in readErrors(errors) }
        errorReader.start()
    }

    private func readErrors(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            condition.withLock { errorOutput.append(chunk) }
        }
        condition.withLock {
            endOfErrorOutput = true
            condition.broadcast()
        }
    }

    /// The standard error read so far (all of it after `finish(timeout:)`).
    package var standardError: String { condition.withLock { String(decoding: errorOutput, as: UTF8.self) } }

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

    /// Writes `line` and a newline to the child's standard input; does nothing once the
    /// child is gone (SIGPIPE is ignored, so the write fails instead of killing us).
    package func send(_ line: String) {
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

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
            while !endOfOutput || !endOfErrorOutput, condition.wait(until: readDeadline) {}
        }
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return (output, killed)
    }

    package var exitStatus: Int32 { process.terminationStatus }

    /// Whether the child was ended by a signal (a trap is SIGILL or SIGTRAP).
    package var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }
}
