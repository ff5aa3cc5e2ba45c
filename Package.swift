// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "OpenCoreData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        // Skopelos' data-access layer on top: DALService, ready stacks, app-state saving, CRUD helpers.
        .library(name: "DataAccess", targets: ["DataAccess"]),
        // The demo apps' logic, for the benchmarks (`Benchmarks/` times ListsKit on long lists).
        .library(name: "EditingSession", targets: ["EditingSession"]),
        .library(name: "ListsKit", targets: ["ListsKit"]),
        .executable(name: "opencoredata-demo", targets: ["opencoredata-demo"]),
    ],
    dependencies: [
        // 603 is the swift-syntax of Swift 6.3; only the macro target uses it.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The demo apps' command line and web app; the libraries never use them, and SwiftPM
        // fetches a dependency only for the products a client uses.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // `@Managed`: generates the accessors of a ManagedObject subclass's properties.
        .macro(
            name: "OpenCoreDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "OpenCoreData",
            dependencies: [
                "CSQLite", "OpenCoreDataMacros",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "DataAccess",
            dependencies: [
                "OpenCoreData",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The demo apps: one context's named, undoable, saved-at-once actions, shared by both kits.
        .target(
            name: "EditingSession",
            dependencies: ["OpenCoreData"]
        ),
        // objc.io's nested lists, UI-free, with its Xcode model shipped as source.
        .target(
            name: "ListsKit",
            dependencies: ["OpenCoreData", "EditingSession"],
            resources: [.copy("Lists.xcdatamodeld")]
        ),
        // The Project/Bug tracker, UI-free, with its Xcode model shipped as source.
        .target(
            name: "BugsKit",
            dependencies: ["OpenCoreData", "EditingSession"],
            resources: [.copy("Bugs.xcdatamodeld")]
        ),
        // The one store both demo apps share (the kits' models merged, history on).
        .target(
            name: "DemoStore",
            dependencies: ["OpenCoreData", "ListsKit", "BugsKit"]
        ),
        // Both apps as live web pages: Hummingbird, Mustache templates, fetched results
        // controllers pushed to the browser as server-sent events.
        .target(
            name: "WebApp",
            dependencies: [
                "OpenCoreData", "EditingSession", "ListsKit", "BugsKit", "DemoStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Templates"), .copy("Public")]
        ),
        // `opencoredata-demo`: both apps on one store, served as a web app (no arguments) or
        // scripted as a command line.
        .executableTarget(
            name: "opencoredata-demo",
            dependencies: [
                "OpenCoreData", "ListsKit", "BugsKit", "DemoStore", "WebApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The reliability tests' child process: writes a store until it is killed.
        .executableTarget(
            name: "ocd-torture",
            dependencies: ["OpenCoreData", "DataAccess"]
        ),
        // Test-only: a SQLite VFS that fails the Nth I/O call.
        .target(
            name: "CSQLiteFaultVFS",
            dependencies: ["CSQLite"]
        ),
        // Shared by test targets: temporary stores, test stacks and models, seeded
        // randomness, child processes, SQL capture, a context invariant checker. Uses the
        // library's public and `package` API only, so any build configuration compiles it.
        .target(
            name: "OpenCoreDataTestSupport",
            dependencies: ["OpenCoreData", "CSQLite", .product(name: "Logging", package: "swift-log")],
            path: "Tests/OpenCoreDataTestSupport"
        ),
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: ["OpenCoreData", "OpenCoreDataTestSupport", "CSQLiteFaultVFS", "ocd-torture"]
        ),
        .testTarget(
            name: "DataAccessTests",
            dependencies: [
                "DataAccess", "OpenCoreData", "OpenCoreDataTestSupport", "ocd-torture",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "EditingSessionTests",
            dependencies: ["EditingSession", "OpenCoreData", "OpenCoreDataTestSupport"]
        ),
        .testTarget(
            name: "ListsKitTests",
            dependencies: ["ListsKit", "EditingSession", "OpenCoreData", "OpenCoreDataTestSupport"]
        ),
        .testTarget(
            name: "BugsKitTests",
            dependencies: ["BugsKit", "EditingSession", "OpenCoreData", "OpenCoreDataTestSupport"]
        ),
        // The command line and the web server, run as child processes (the browser and load
        // tests drive the server from Python).
        .testTarget(
            name: "DemoTests",
            dependencies: ["opencoredata-demo", "ListsKit", "BugsKit", "OpenCoreData", "OpenCoreDataTestSupport"]
        ),
        // The web app's routes in process (Hummingbird's test client).
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp", "DemoStore", "ListsKit", "BugsKit", "EditingSession", "OpenCoreData", "OpenCoreDataTestSupport", "CSQLite",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
