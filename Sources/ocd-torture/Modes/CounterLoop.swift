import Foundation
import OpenCoreData

/// Increments the single `Counter` until `limit` increments are committed: fetch, add
/// one, save; on `.mergeConflict` it rolls back and tries again. Prints `ack <value>`
/// per committed increment and `conflict` per conflict.
struct CounterLoop {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let stack = try TortureStack(path: arguments.store)
        let watchdog = Watchdog(limit: arguments.seconds)
        try stack.context.performAndWait {
            var committed = 0
            while committed < arguments.limit, !watchdog.shouldStop {
                stack.context.reset()
                guard let counter = try stack.fetch("Counter").first else {
                    throw CoreDataError(.objectNotFound, "The store has no Counter.")
                }
                let value = (counter.value(forKey: "value") as? Int64 ?? 0) + 1
                counter.setValue(value, forKey: "value")
                if arguments.thinkMicroseconds > 0 { usleep(UInt32(arguments.thinkMicroseconds)) }
                do {
                    try stack.context.save()
                    committed += 1
                    emit("ack \(value)")
                } catch let error as CoreDataError where error.code == .mergeConflict {
                    emit("conflict")
                    stack.context.rollback()
                }
            }
        }
    }
}
