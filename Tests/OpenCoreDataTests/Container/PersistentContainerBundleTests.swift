import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// `PersistentContainer(name:bundle:)` finds the source model in real bundles made in a
/// temporary folder (SwiftPM's resource bundles on Linux are plain folders holding the
/// copied resources) from the corpus models.
@Suite(.requiresCorpus) struct PersistentContainerBundleTests {
    static let skopelos = modelCorpusURL.appendingPathComponent("skopelos-example/DataModel.xcdatamodeld")

    /// A bundle folder holding `items` (source URL → name inside the bundle).
    static func bundle(in folder: TemporaryFolder, _ items: [(URL, String)]) throws -> Bundle {
        let root = folder.url.appendingPathComponent("App_App.resources", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (source, name) in items {
            try FileManager.default.copyItem(at: source, to: root.appendingPathComponent(name))
        }
        return try #require(Bundle(url: root))
    }

    @Test func findsTheXcdatamodeldInTheBundle() throws {
        let folder = TemporaryFolder()
        let bundle = try Self.bundle(in: folder, [(Self.skopelos, "DataModel.xcdatamodeld")])
        let container = try PersistentContainer(name: "DataModel", bundle: bundle)
        #expect(container.managedObjectModel.entities.map(\.name).sorted() == ["Pet", "User"])
        #expect(container.managedObjectModel.versionName == "DataModel")
        // Loadable and usable.
        container.persistentStoreDescriptions[0].url = folder.file("DataModel.sqlite")
        let errors = container.loadCollectingErrors()
        #expect(errors.count == 1 && errors[0] == nil)
    }

    @Test func findsALoneXcdatamodel() throws {
        let folder = TemporaryFolder()
        let version = Self.skopelos.appendingPathComponent("DataModel.xcdatamodel")
        let bundle = try Self.bundle(in: folder, [(version, "DataModel.xcdatamodel")])
        let container = try PersistentContainer(name: "DataModel", bundle: bundle)
        #expect(container.managedObjectModel.entities.map(\.name).sorted() == ["Pet", "User"])
    }

    /// A bundle with several models: the one named is loaded (the current version of a
    /// multi-version bundle).
    @Test func picksTheNamedModelAndItsCurrentVersion() throws {
        let folder = TemporaryFolder()
        let mastodon = modelCorpusURL.appendingPathComponent("mastodon/CoreData.xcdatamodeld")
        let bundle = try Self.bundle(in: folder, [(Self.skopelos, "DataModel.xcdatamodeld"), (mastodon, "CoreData.xcdatamodeld")])
        let container = try PersistentContainer(name: "CoreData", bundle: bundle)
        #expect(container.managedObjectModel.versionName == "CoreData 3")
        #expect(container.name == "CoreData")
        #expect(container.persistentStoreDescriptions[0].url?.lastPathComponent == "CoreData.sqlite")
    }

    /// A compiled model alone is refused with a message saying to ship the source model.
    @Test(arguments: ["momd", "mom"])
    func aCompiledModelIsATypedErrorSayingToShipTheSource(ext: String) throws {
        let folder = TemporaryFolder()
        let compiled = try folder.write("compiled", to: "build/DataModel.\(ext)/VersionInfo.plist").deletingLastPathComponent()
        let bundle = try Self.bundle(in: folder, [(compiled, "DataModel.\(ext)")])
        let error = try #require(throws: CoreDataError.self) { try PersistentContainer(name: "DataModel", bundle: bundle) }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("DataModel.\(ext)"))
        #expect(error.message.contains(".copy(\"DataModel.xcdatamodeld\")"))
    }

    /// The source model wins over a compiled one next to it.
    @Test func theSourceModelWinsOverACompiledOne() throws {
        let folder = TemporaryFolder()
        let compiled = try folder.write("compiled", to: "build/DataModel.momd/VersionInfo.plist").deletingLastPathComponent()
        let bundle = try Self.bundle(in: folder, [(compiled, "DataModel.momd"), (Self.skopelos, "DataModel.xcdatamodeld")])
        #expect(try PersistentContainer(name: "DataModel", bundle: bundle).managedObjectModel.entities.count == 2)
    }

    @Test func aMissingModelIsATypedErrorNamingWhereItLooked() throws {
        let folder = TemporaryFolder()
        let bundle = try Self.bundle(in: folder, [(Self.skopelos, "DataModel.xcdatamodeld")])
        let error = try #require(throws: CoreDataError.self) { try PersistentContainer(name: "Other", bundle: bundle) }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("Other.xcdatamodeld"))
        #expect(error.message.contains(bundle.bundleURL.path))
        #expect(error.message.contains("Bundle.module"))
    }
}
