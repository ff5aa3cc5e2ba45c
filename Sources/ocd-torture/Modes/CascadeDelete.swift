import Foundation
import OpenCoreData

/// Deletes the root of the `doomed` tree through a context (the cascade rule deletes
/// the whole subtree) and saves: prints `ack deleted <n>` with the items deleted, or
/// `ack nothing` when there is no such root.
struct CascadeDelete {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let stack = try TortureStack(path: arguments.store)
        try stack.context.performAndWait {
            guard let root = try stack.fetch("Item", "group == %@ AND parent == nil", CascadeFixture.doomed).first else {
                emit("ack nothing")
                return
            }
            stack.context.delete(root)
            stack.context.processPendingChanges()
            let count = stack.context.deletedObjects.count
            emit("saving")
            try stack.context.save()
            emit("ack deleted \(count)")
        }
    }
}

/// The store the cascade and batch-delete modes start from: `doomedRoots` trees of the
/// `doomed` group (the ones to delete) and one tree of the `kept` group.
enum CascadeFixture {
    static let doomed = "doomed"
    static let kept = "kept"

    /// Inserts and saves the trees (the kept one only with `keptToo`); returns the items
    /// of each group it inserted.
    @discardableResult
    static func build(in stack: TortureStack, doomedRoots: Int, fanout: Int, keptToo: Bool = true) throws -> (doomed: Int, kept: Int) {
        try stack.context.performAndWait {
            var doomedCount = 0
            for index in 0..<doomedRoots {
                doomedCount += stack.insertTree(title: "\(doomed)\(index)", group: doomed, fanout: fanout, depth: 2)
            }
            let keptCount = keptToo ? stack.insertTree(title: kept, group: kept, fanout: fanout, depth: 2) : 0
            try stack.context.save()
            stack.context.reset()
            return (doomedCount, keptCount)
        }
    }
}
