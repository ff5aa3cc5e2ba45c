import Foundation
import OpenCoreDataTestSupport
import Testing

/// Runs the `opencoredata-demo` binary as a child process on a store of its own, in a
/// temporary folder, and collects what it printed and how it exited.
final class DemoCLI {
    /// What one run printed and its exit status.
    struct Run: CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let output: String
        let errors: String

        /// The standard output decoded as JSON.
        func json<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
            try JSONDecoder.demo.decode(type, from: Data(output.utf8))
        }

        var description: String {
            "opencoredata-demo \(arguments.joined(separator: " ")) → \(status)\nstdout:\n\(output)stderr:\n\(errors)"
        }
    }

    let folder = TemporaryFolder()
    let binary: URL

    /// The store every run uses unless `store:` is given.
    var storePath: String { folder.file("Demo.sqlite").path }

    init() throws {
        let (url, searched) = ProductBinary.locate("opencoredata-demo", overrideVariable: "OCD_DEMO")
        binary = try #require(url, "opencoredata-demo is not built; searched \(searched)")
    }

    /// The folder runs without `--store` use as `$XDG_DATA_HOME`, so that no run touches
    /// the user's real default store.
    var dataHome: URL { folder.file("data") }

    /// Runs the binary with `arguments`, plus `--store storePath` when `addsStore`.
    @discardableResult
    func run(_ arguments: [String], addsStore: Bool = true) throws -> Run {
        let full = arguments + (addsStore ? ["--store", storePath] : [])
        let child = try ChildProcess(binary, full, environment: ["XDG_DATA_HOME": dataHome.path])
        let (lines, killed) = child.finish(timeout: 30)
        #expect(!killed, "opencoredata-demo \(full) did not exit within 30 s")
        let output = lines.map { $0.text + "\n" }.joined()
        return Run(arguments: full, status: child.exitStatus, output: output, errors: child.standardError)
    }

    /// Starts the binary without waiting, for runs at the same time as others.
    func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(binary, arguments + ["--store", storePath], environment: ["XDG_DATA_HOME": dataHome.path])
    }
}

extension JSONDecoder {
    /// Decodes the CLI's JSON: ISO 8601 dates, base64 data.
    static var demo: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
