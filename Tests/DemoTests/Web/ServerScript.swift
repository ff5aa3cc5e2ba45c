import Foundation
import OpenCoreDataTestSupport
import Testing

/// One of the Python scripts in `Tests/Scripts/` that drive `opencoredata-demo serve` from
/// outside, as a browser or a load would, run on the binary this build made.
struct ServerScript {
    /// What a run printed and how it ended.
    struct Run: CustomStringConvertible {
        let status: Int32
        let output: String
        let errors: String
        var description: String { "exit \(status)\nstdout:\n\(output)\nstderr:\n\(errors)" }
    }

    let script: URL
    let binary: URL

    /// The script `name`, with the demo binary; cancels the test with a message when the
    /// binary or `python3` cannot be found.
    init(_ name: String) throws {
        script = DocExample.repositoryRoot.appendingPathComponent("Tests/Scripts/\(name)")
        let (url, searched) = ProductBinary.locate("opencoredata-demo", overrideVariable: "OCD_DEMO")
        binary = try #require(url, "opencoredata-demo is not built; searched \(searched)")
        try Self.require(Self.python != nil, "python3 is not on PATH")
    }

    /// `python3` on PATH.
    static var python: URL? { executable("python3") }

    /// The first executable called `name` on PATH.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether a missing tool fails the test instead of skipping it: under CI, whose
    /// `.ci/run` installs every tool (`OCD_REQUIRE_BROWSER=1`).
    static var toolsRequired: Bool { ProcessInfo.processInfo.environment["OCD_REQUIRE_BROWSER"] == "1" }

    /// Goes on when `condition` holds; otherwise fails (tools required) or cancels the test
    /// with `reason` and how to get what is missing.
    static func require(_ condition: Bool, _ reason: String) throws {
        guard !condition else { return }
        let message = "SKIPPED: \(reason). `.ci/run` installs what the web tests need (python3, Debian's chromium and chromium-driver, pip's selenium)."
        if toolsRequired { throw MissingTool(description: message) }
        print(message)
        try Test.cancel(Comment(rawValue: message))
    }

    /// A tool the test needs is missing where it must not be.
    struct MissingTool: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the script with `arguments` and the binary, waiting up to `timeout` seconds.
    func run(_ arguments: [String], timeout: TimeInterval) throws -> Run {
        let python = try #require(Self.python)
        let child = try ChildProcess(python, [script.path, "--binary", binary.path] + arguments)
        let (lines, killed) = child.finish(timeout: timeout)
        #expect(!killed, "\(script.lastPathComponent) did not finish within \(Int(timeout)) s")
        return Run(status: child.exitStatus, output: lines.map(\.text).joined(separator: "\n"), errors: child.standardError)
    }
}
