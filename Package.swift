// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "opencoredata-demo", targets: ["opencoredata-demo"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "OpenCoreData",
            dependencies: ["CSQLite"]
        ),
        .executableTarget(
            name: "opencoredata-demo",
            dependencies: ["OpenCoreData"]
        ),
        // The reliability tests' child process: writes a store until it is killed.
        .executableTarget(
            name: "ocd-torture",
            dependencies: ["OpenCoreData"]
        ),
        // Test-only: a SQLite VFS that fails the Nth I/O call.
        .target(
            name: "CSQLiteFaultVFS",
            dependencies: ["CSQLite"]
        ),
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: ["OpenCoreData", "CSQLiteFaultVFS", "ocd-torture"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
