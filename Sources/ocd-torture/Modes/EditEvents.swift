import Foundation
@_spi(ChangeTracking) import OpenCoreData

/// A long-running context with a consumer of its change sets: `--batch-size` items, then
/// `--limit` events that each rename all of them (a save every fifth event), never
/// resetting the context. Prints `events <n>` and, at the end, `peak <KiB>` (the
/// process's `VmHWM`): what the ledger and change sets keep must not grow with the
/// number of events.
struct EditEvents {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let stack = try TortureStack(path: arguments.store)
        let context = stack.context
        let watchdog = Watchdog(limit: arguments.seconds)
        try context.performAndWait {
            for index in 0..<arguments.batchSize {
                _ = stack.insert("Item", ["title": "new \(index)", "group": "edit-events"])
            }
            try context.save()
            var changed = 0
            context.addChangeConsumer { changed += $0.updated.count }
            for event in 1...max(1, arguments.limit) where !watchdog.shouldStop {
                for item in try stack.fetch("Item", "group == %@", "edit-events") {
                    item.setValue("item \(event)", forKey: "title")
                }
                context.processPendingChanges()
                if event % 5 == 0 { try context.save() }
            }
            try context.save()
            emit("events \(changed / max(1, arguments.batchSize))")
        }
        emit("peak \(Self.peakKiB())")
    }

    /// The process's peak resident size in KiB (`VmHWM` in /proc/self/status), 0 if unknown.
    static func peakKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
