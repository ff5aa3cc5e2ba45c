import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A folder whose files the fault VFS watches (installing the VFS first); stops watching
/// when released.
final class FaultFolder {
    let folder = TemporaryFolder()
    init() throws {
        try FaultVFS.install()
        FaultVFS.watch(folder.url)
    }
    deinit { FaultVFS.unwatch() }
    func path(_ name: String) -> String { folder.file(name).path }

    /// This process's open file descriptors on files in the folder (none once every store
    /// in it is closed: a failed open or save must not leak one). Linux only; empty elsewhere.
    func openDescriptors() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let prefix = folder.url.resolvingSymlinksInPath().path + "/"
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(prefix) || $0.hasPrefix(folder.url.path + "/") }
    }

    /// A copy of the closed store at `template`, named `name`.
    func copy(_ template: String, to name: String) throws -> String {
        let path = path(name)
        try FileManager.default.copyItem(atPath: template, toPath: path)
        return path
    }
}

/// The store the fault-injection tests start from, and the change they save.
enum FaultFixture {
    /// Creates a store at `path` with 20 records, the ledger and a small item tree, and
    /// closes it (so the file holds everything, with no `-wal`).
    static func build(at path: String) throws {
        let stack = try TortureStack(path: path)
        defer { close(stack) }
        try stack.context.performAndWait {
            for position in Int64(0)..<20 {
                _ = stack.insert("Record", ["batch": Int64(1), "position": position, "checksum": TortureModel.checksum(batch: 1, position: position)])
            }
            _ = stack.insert("Ledger", ["lastBatch": Int64(1), "records": Int64(20)])
            stack.insertTree(title: "tree", group: "kept", fanout: 3, depth: 2)
            try stack.context.save()
        }
    }

    /// Inserts, updates and deletes in `stack`'s context (records filling a dozen pages,
    /// the ledger, an item moved to another parent, a subtree deleted by cascade),
    /// without saving.
    static func change(_ stack: TortureStack) throws {
        for position in Int64(20)..<170 {
            _ = stack.insert("Record", [
                "batch": Int64(2), "position": position, "checksum": TortureModel.checksum(batch: 2, position: position),
                "payload": String(repeating: "x", count: 300),
            ])
        }
        let ledger = try stack.fetch("Ledger")[0]
        ledger.setValue(Int64(2), forKey: "lastBatch")
        try stack.fetch("Record", "position == 0")[0].setValue("changed", forKey: "payload")
        try stack.fetch("Record", "position == 19").forEach(stack.context.delete)
        let moved = try stack.fetch("Item", "title == 'tree-1-0'")[0]
        moved.setValue(try stack.fetch("Item", "title == 'tree-0-2'")[0], forKey: "parent")
        try stack.fetch("Item", "title == 'tree-0-0'").forEach(stack.context.delete)
        let root = try stack.fetch("Item", "title == 'tree'")[0]
        _ = stack.insert("Item", ["title": "new", "group": "kept", "parent": root])
        stack.context.processPendingChanges()
    }

    /// Closes every store of `stack` (the last connection checkpoints and removes the WAL).
    static func close(_ stack: TortureStack) {
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
    }
}
