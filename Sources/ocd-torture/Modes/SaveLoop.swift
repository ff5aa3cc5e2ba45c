import Foundation
import OpenCoreData

/// Saves batches of records, each with the `Ledger` update, one transaction per batch,
/// printing `ack <batch>` after each save returns; continues after the last batch in
/// the store.
struct SaveLoop {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let stack = try TortureStack(path: arguments.store)
        let watchdog = Watchdog(limit: arguments.seconds)
        try stack.context.performAndWait {
            while !watchdog.shouldStop {
                // A fresh context state per batch keeps memory flat.
                stack.context.reset()
                let ledger = try stack.fetch("Ledger").first ?? stack.insert("Ledger", [:])
                let batch = (ledger.value(forKey: "lastBatch") as? Int64 ?? 0) + 1
                guard batch <= Int64(arguments.limit) else { break }
                for position in 0..<Int64(arguments.batchSize) {
                    _ = stack.insert("Record", [
                        "batch": batch, "position": position,
                        "checksum": TortureModel.checksum(batch: batch, position: position),
                        "payload": TortureModel.payload(batch: batch, position: position),
                    ])
                }
                ledger.setValue(batch, forKey: "lastBatch")
                ledger.setValue((ledger.value(forKey: "records") as? Int64 ?? 0) + Int64(arguments.batchSize), forKey: "records")
                emit("saving")
                try stack.context.save()
                emit("ack \(batch)")
            }
        }
    }
}
