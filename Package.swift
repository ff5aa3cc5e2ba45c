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
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: ["OpenCoreData"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
