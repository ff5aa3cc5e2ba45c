import Foundation
import OpenCoreData

/// Creates a brand-new store at the path (for kills during creation), then checks that
/// it reads back: prints `ack created`.
struct Create {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        emit("saving")
        let stack = try TortureStack(path: arguments.store)
        _ = try stack.context.performAndWait { try stack.fetch("Ledger") }
        emit("ack created")
    }
}
