import Foundation
@testable import OpenCoreData

/// Every file of a folder with its size and SHA-256: two snapshots are equal only when
/// nothing was created, deleted or written.
struct FolderSnapshot: Equatable, CustomStringConvertible {
    let files: [String: String]

    init(_ folder: URL) {
        var files: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
            files[name] = "\(data.count) bytes, sha256 " + SHA256.hash(Array(data)).map { String(format: "%02x", $0) }.joined()
        }
        self.files = files
    }

    /// The snapshot without the file `name`.
    func excluding(_ name: String) -> FolderSnapshot {
        var files = files
        files[name] = nil
        return FolderSnapshot(files: files)
    }

    private init(files: [String: String]) { self.files = files }

    var description: String { files.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n") }
}

extension PersistentStoreCoordinator {
    /// A coordinator for `model` with the SQLite store at `url` added with `options`.
    static func opening(_ model: ManagedObjectModel, at url: URL, options: [String: any Sendable]? = nil) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        return coordinator
    }
}
