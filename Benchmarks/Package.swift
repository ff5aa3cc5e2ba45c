// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "OpenCoreDataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenCoreData", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLiteBench",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .executableTarget(
            name: "ocd-bench",
            dependencies: [
                "CSQLiteBench",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OpenCoreData", package: "OpenCoreData"),
                .product(name: "DataAccess", package: "OpenCoreData"),
                .product(name: "ListsKit", package: "OpenCoreData"),
                .product(name: "EditingSession", package: "OpenCoreData"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
