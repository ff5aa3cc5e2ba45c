import Foundation
import Testing

/// Runs one test of this test binary again as user `nobody` (`setpriv`), for what root
/// cannot test: permission bits do not bind root. Records an issue when the child's test
/// fails; prints a loud SKIPPED line when no unprivileged child can be run.
enum UnprivilegedRun {
    static func test(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else {
            print("\(name): SKIPPED, running as root and \(setpriv) is missing")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CommandLine.arguments[0],
                             "--testing-library", "swift-testing", "--filter", name]
        process.environment = ["HOME": "/tmp", "PATH": "/usr/bin:/bin", "TMPDIR": "/tmp"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 0 && text.contains("passed") && !text.contains("SKIPPED") { return }
        if text.contains("recorded an issue") || text.contains("failed after") {
            Issue.record("\(name) failed as user nobody:\n\(text)", sourceLocation: sourceLocation)
        } else {
            print("\(name): SKIPPED, could not run as user nobody (status \(process.terminationStatus)): \(text.prefix(300))")
        }
    }
}
