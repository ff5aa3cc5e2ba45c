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
            dependencies: ["CFuzzerDriver", .product(name: "OpenCoreData", package: "OpenCoreData")]
        ),
        // Declares libFuzzer's `LLVMFuzzerRunDriver`, which PredicateFuzzer's `main` calls:
        // libFuzzer's own `main` cannot be linked, as run.sh's flags also reach the
        // `@Managed` macro's plugin, an executable with a `main` of its own.
        .target(name: "CFuzzerDriver"),
    ],
    swiftLanguageModes: [.v6]
)
