import Foundation

/// Finds an executable product of this package that SwiftPM builds beside the test bundle
/// (a test target that runs one depends on it): `ocd-torture`, `opencoredata-demo`.
package enum ProductBinary {
    /// The product's location, or nil (with the places searched) when it is not built.
    /// `overrideVariable` names an environment variable that, when set, is searched first.
    package static func locate(_ name: String, overrideVariable: String) -> (url: URL?, searched: [String]) {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment[overrideVariable], !override.isEmpty {
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
