import Foundation
import OpenCoreData

extension DALService {
    /// Deletes the store — for SQLite its file and the `-wal` and `-shm` beside it — and
    /// builds a clean stack: new coordinator, root, main and (shared) scratch contexts, so
    /// no context of the old stack is used again. Waits for a write that is saving; a
    /// write still running its block when the stack is replaced fails with `.stackNuked`.
    /// Objects fetched before are of the old stack: fetch again.
    ///
    /// - Throws: the error of deleting a file or adding the new store (also handed to
    ///   `handleError(_:)`).
    public func nuke() throws {
        do {
            try commitLock.withLock {
                let old = stack
                try? old.waitUntilLoaded()
                for store in old.coordinator.persistentStores { old.coordinator.remove(store) }
                if let url = old.storeURL { try Self.deleteStoreFiles(at: url) }
                let fresh = DALStack(model: managedObjectModel, storeType: storeType, storeURL: storeURL, sharesScratch: !allowsConcurrentWritings)
                replaceStack(with: fresh)
                fresh.loadStore(asynchronously: false) { _ in }
                try fresh.waitUntilLoaded()
            }
        } catch {
            throw report(error)
        }
    }

    /// Removes a SQLite store's file and its `-wal`, `-shm` and `-journal` companions.
    static func deleteStoreFiles(at url: URL) throws {
        let manager = FileManager.default
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            guard manager.fileExists(atPath: path) else { continue }
            do {
                try manager.removeItem(atPath: path)
            } catch {
                throw CoreDataError(.storeOperationFailed, "DataAccess.nuke(): cannot delete \(path): \(error.localizedDescription)")
            }
        }
    }
}
