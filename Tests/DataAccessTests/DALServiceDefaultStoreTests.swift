import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// `DALService(sqliteStack: "Name", bundle:)`: the source model found in a bundle, the
/// store by default where a `PersistentContainer` named after it keeps its own.
@Suite("DALService default store")
struct DALServiceDefaultStoreTests {
    /// Stores go to a folder of the test's, not the user's data folder.
    final class RelocatedDAL: DALService, @unchecked Sendable {
        // @unchecked Sendable: adds no state.
        static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-dal-default-\(getpid())", isDirectory: true)
        override class func defaultDirectoryURL() -> URL { folder }
    }

    /// A SwiftPM-style resource bundle (a plain folder on Linux) holding the source model
    /// `name.xcdatamodel`.
    private static func bundle(in folder: TemporaryFolder, modelName name: String) throws -> Bundle {
        try folder.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="User" representedClassName="User" syncable="YES" codeGenerationType="class">
                    <attribute name="firstname" optional="YES" attributeType="String"/>
                    <attribute name="lastname" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """, to: "App_App.resources/\(name).xcdatamodel/contents")
        return try #require(Bundle(url: folder.url.appendingPathComponent("App_App.resources", isDirectory: true)))
    }

    @Test func theDefaultFolderIsTheContainers() {
        #expect(DALService.defaultDirectoryURL() == PersistentContainer.defaultDirectoryURL())
        #expect(DALService.defaultStoreURL(named: "DataModel") == PersistentContainer.defaultDirectoryURL().appendingPathComponent("DataModel.sqlite"))
    }

    @Test func modelByNameAtTheDefaultLocation() throws {
        let folder = TemporaryFolder()
        let name = "DataModel-\(UUID().uuidString)"
        let bundle = try Self.bundle(in: folder, modelName: name)
        let expected = RelocatedDAL.folder.appendingPathComponent("\(name).sqlite")
        defer { try? FileManager.default.removeItem(at: RelocatedDAL.folder) }
        _ = DALTestModel.make()  // binds the User class
        let dal = try RelocatedDAL(sqliteStack: name, bundle: bundle, appStateSaving: .off)
        #expect(dal.storeURL == expected)
        var names: [String?] = []
        dal.writeSync { context in
            User.create(in: context).firstname = "Ada"
        }.read { context in
            names = try User.all(in: context).map(\.firstname)
        }
        #expect(names == ["Ada"])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: dal.managedObjectModel)
        try coordinator.addPersistentStore(type: .sqlite, at: expected)
        let reader = ManagedObjectContext(concurrencyType: .privateQueue)
        reader.persistentStoreCoordinator = coordinator
        #expect(try reader.performAndWait { try User.all(in: reader).map(\.firstname) } == ["Ada"])
    }

    @Test func aMissingModelIsATypedError() throws {
        let folder = TemporaryFolder()
        let bundle = try Self.bundle(in: folder, modelName: "Present")
        #expect(throws: CoreDataError.self) { _ = try DALService(sqliteStack: "Absent", bundle: bundle, storeURL: folder.file()) }
    }
}
