// swift-tools-version: 6.1
import PackageDescription

// A libFuzzer target for the predicate parser, kept out of the main package so that its
// build stays uninstrumented. Build and run it with `./run.sh [seconds]`.
let package = Package(
    name: "OpenCoreDataFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenCoreData", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "PredicateFuzzer",
            dependencies: [.product(name: "OpenCoreData", package: "OpenCoreData")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
