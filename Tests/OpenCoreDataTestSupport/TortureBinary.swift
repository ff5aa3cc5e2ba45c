import Foundation

/// Finds the `ocd-torture` helper that SwiftPM builds beside the test bundle (the test
/// targets depend on it).
package enum TortureBinary {
    package static let name = "ocd-torture"

    /// The helper's location, or nil (with the places searched) when it is not built.
    package static func locate() -> (url: URL?, searched: [String]) {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["OCD_TORTURE"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        // Linux: the tests run as `<build>/debug/OpenCoreDataPackageTests.xctest`, an executable.
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name))
        // macOS: the .xctest bundle sits in the build folder.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        // Last resort: the package's own build folder, found from this source file.
        let root = DocExample.repositoryRoot
        for configuration in ["debug", "release"] {
            candidates.append(root.appendingPathComponent(".build/\(configuration)/\(name)"))
        }
        var seen = Set<String>()
        let paths = candidates.map(\.path).filter { seen.insert($0).inserted }
        let found = paths.first { FileManager.default.isExecutableFile(atPath: $0) }
        return (found.map(URL.init(fileURLWithPath:)), paths)
    }
}
