import BugsKit
import Foundation
import ListsKit
import OpenCoreData

/// The one store both demo apps share: the kits' models merged with
/// `ManagedObjectModel(byMerging:)`, in one SQLite file, with persistent history tracking
/// and remote change notifications on so that several processes — the CLI, the web server —
/// can work on the file at once and see each other's changes.
///
/// Work goes through private-queue contexts (`newContext()`), never the main queue.
public struct DemoStore: Sendable {
    /// The container's name: the default file is `Demo.sqlite` in the program's data folder.
    public static let name = "Demo"

    public let container: PersistentContainer
    /// The store file.
    public let url: URL

    /// The default store file: `PersistentContainer.defaultDirectoryURL()/Demo.sqlite`, i.e.
    /// `$XDG_DATA_HOME/opencoredata-demo/` or `~/.local/share/opencoredata-demo/`.
    public static var defaultURL: URL {
        PersistentContainer.defaultDirectoryURL().appendingPathComponent("\(name).sqlite")
    }

    /// Opens (creating if missing) the store at `url`, or at `defaultURL` when nil; a
    /// `timeout` (seconds) other than nil replaces the store's 5 s wait for another
    /// process's write lock.
    ///
    /// - Throws: `DemoStoreError.cannotCreateFolder` when the file's folder is missing and
    ///   cannot be made; `CoreDataError` when the store cannot be opened (not a store, a
    ///   newer model, busy) or a kit's model cannot be loaded.
    public static func open(at url: URL? = nil, timeout: TimeInterval? = nil) throws -> DemoStore {
        let url = (url ?? defaultURL).standardizedFileURL
        try createFolder(of: url)
        let container = PersistentContainer(name: name, managedObjectModel: try mergedModel())
        let description = PersistentStoreDescription(url: url)
        description.setOption(true, forKey: PersistentStoreOption.persistentHistoryTracking)
        description.setOption(true, forKey: PersistentStoreOption.remoteChangeNotificationPost)
        if let timeout { description.timeout = timeout }
        container.persistentStoreDescriptions = [description]
        let failure = LoadFailure()
        container.loadPersistentStores { _, error in failure.error = error }
        if let error = failure.error { throw error }
        return DemoStore(container: container, url: url)
    }

    /// A new private-queue context on the store.
    public func newContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }

    /// Both apps' models in one: the nested lists' `Item`, the tracker's `Project` and `Bug`.
    public static func mergedModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(byMerging: [NestedList.model(), BugsModel.makeModel()])
    }

    private static func createFolder(of url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DemoStoreError.cannotCreateFolder(folder.path, reason: obstacle(to: folder) ?? FileFailure.reason(error))
        }
    }

    /// What keeps `folder` from being created: its nearest existing ancestor is a file, or
    /// cannot be written to.
    private static func obstacle(to folder: URL) -> String? {
        var ancestor = folder
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
            let parent = ancestor.deletingLastPathComponent()
            if parent.path == ancestor.path { return nil }
            ancestor = parent
        }
        if !isFolder.boolValue { return "\(ancestor.path) is a file, not a folder" }
        if !FileManager.default.isWritableFile(atPath: ancestor.path) { return "\(ancestor.path) is not writable" }
        return nil
    }
}

/// Carries the error of a synchronous `loadPersistentStores` out of its completion handler.
private final class LoadFailure: @unchecked Sendable {
    // @unchecked Sendable: written by the completion handler, which runs on the calling
    // thread before `loadPersistentStores` returns (the description is synchronous).
    var error: (any Error)?
}
