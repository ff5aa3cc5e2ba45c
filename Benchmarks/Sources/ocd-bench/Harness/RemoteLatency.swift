import Foundation
import OpenCoreData
#if canImport(Glibc)
import Glibc
#endif

/// `--remote-latency`: how long after another process's commit
/// `PersistentStoreCoordinator.storeRemoteChangeNotification` is posted, and what the
/// watcher costs.
///
/// - Latency: this process opens a store with `remoteChangeNotificationPost`; a child (this
///   binary re-executed with `--remote-writer PATH`) saves one object per line it is sent and
///   prints the `CLOCK_MONOTONIC` instants around its `save()` — one clock for every process
///   of the machine. Latency is the notification's instant minus the end of the save (minus
///   its start, for the upper bound). Saves are spaced so none are coalesced; inotify and
///   polling (`remoteChangePolling`) in turn.
/// - Idle cost: the process's CPU time and context switches (`getrusage`) over 10 s with no
///   writes, with the option off, on (inotify) and on with polling.
/// - Per-save cost: N saves of one object in this process, option off and on: the median
///   `save()` and the process's CPU time per save (the watcher's checks included, over
///   the saves and a 1 s tail for their follow-up checks).
enum RemoteLatency {
    static let childFlag = "--remote-writer"

    static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [AttributeDescription(name: "text", type: .string)])])
    }

    /// Nanoseconds on `CLOCK_MONOTONIC`.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    // MARK: - Child

    /// The writer: `armed`, then per `save` line one object saved and `ack BEFORE AFTER`.
    static func child(path: String) -> Int32 {
        do {
            let stack = try OCDStack(model: model(), path: path)
            write("armed")
            while let line = readLine(), line != "quit" {
                let (before, after) = try stack.context.performAndWait {
                    let note = EntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
                    note.setValue(line, forKey: "text")
                    let before = now()
                    try stack.context.save()
                    return (before, now())
                }
                write("ack \(before) \(after)")
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("remote writer: \(error)\n".utf8))
            return 1
        }
    }

    private static func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    // MARK: - Parent

    static func run(saves: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-bench-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = [
            "## Remote change notifications: commit in another process → notification (\(saves) saves)",
            "",
            "| detection | median ms | p95 ms | max ms | max ms from save start |",
            "|---|---|---|---|---|",
        ]
        for polling in [false, true] {
            let url = folder.appendingPathComponent("latency-\(polling).sqlite")
            let (fromEnd, fromStart) = try latencies(url: url, saves: saves, polling: polling)
            func ms(_ value: Double?) -> String { String(format: "%.1f", (value ?? .nan) / 1e6) }
            lines.append("| \(polling ? "polling (100 ms)" : "inotify") | \(ms(percentile(fromEnd, 0.5))) | \(ms(percentile(fromEnd, 0.95))) | \(ms(fromEnd.max())) | \(ms(fromStart.max())) |")
            ParentMain.log("remote latency \(polling ? "polling" : "inotify") measured")
        }
        lines += ["", "| watcher | idle CPU ms / 10 s | idle context switches / 10 s | median save µs | CPU µs per save |", "|---|---|---|---|---|"]
        for mode in ["off", "inotify", "polling"] {
            let options = Self.options(mode)
            let idle = try idleCost(url: folder.appendingPathComponent("idle-\(mode).sqlite"), options: options)
            let perSave = try saveCost(url: folder.appendingPathComponent("save-\(mode).sqlite"), options: options, saves: 300)
            lines.append("| \(mode) | \(String(format: "%.2f", idle.cpu * 1e3)) | \(idle.switches) | \(String(format: "%.0f", perSave.median * 1e6)) | \(String(format: "%.0f", perSave.cpu * 1e6)) |")
            ParentMain.log("remote cost \(mode) measured")
        }
        return lines.joined(separator: "\n")
    }

    private static func options(_ mode: String) -> [String: any Sendable] {
        switch mode {
        case "off": return [:]
        case "polling": return [PersistentStoreOption.remoteChangeNotificationPost: true, PersistentStoreOption.remoteChangePolling: true]
        default: return [PersistentStoreOption.remoteChangeNotificationPost: true]
        }
    }

    /// Instants of the notifications posted so far.
    final class Arrivals: @unchecked Sendable {
        // @unchecked Sendable: `times` is read and written under `condition` only.
        private let condition = NSCondition()
        private var times: [UInt64] = []
        func add(_ time: UInt64) { condition.withLock { times.append(time); condition.broadcast() } }
        /// The first arrival at or after `time`, waiting up to 2 s.
        func first(after time: UInt64) -> UInt64? {
            let deadline = Date().addingTimeInterval(2)
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let found = times.first(where: { $0 >= time }) { return found }
                if !condition.wait(until: deadline) { return nil }
            }
        }
    }

    /// Nanoseconds from the end (and from the start) of each of the child's saves to the
    /// notification of it.
    private static func latencies(url: URL, saves: Int, polling: Bool) throws -> ([Double], [Double]) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options(polling ? "polling" : "inotify"))
        let arrivals = Arrivals()
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: coordinator, queue: nil
        ) { _ in arrivals.add(now()) }
        defer { NotificationCenter.default.removeObserver(observer) }
        let child = try Child(path: url.path)
        guard child.readLine() == "armed" else { throw ChildLauncher.Failure(description: "remote writer did not start") }
        var fromEnd: [Double] = [], fromStart: [Double] = []
        for index in 1...saves {
            child.send("note \(index)")
            let fields = (child.readLine() ?? "").split(separator: " ")
            guard fields.count == 3, let before = UInt64(fields[1]), let after = UInt64(fields[2]) else {
                throw ChildLauncher.Failure(description: "remote writer: no ack for save \(index)")
            }
            guard let arrival = arrivals.first(after: before) else {
                throw ChildLauncher.Failure(description: "save \(index) of the other process was not posted within 2 s")
            }
            fromEnd.append(Double(Int64(arrival) - Int64(after)))
            fromStart.append(Double(arrival - before))
            usleep(50_000)
        }
        child.send("quit")
        child.wait()
        return (fromEnd, fromStart)
    }

    /// CPU seconds and context switches of this process over 10 s without writes.
    private static func idleCost(url: URL, options: [String: any Sendable]) throws -> (cpu: Double, switches: Int) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        Thread.sleep(forTimeInterval: 1)
        let start = Usage.now()
        Thread.sleep(forTimeInterval: 10)
        let end = Usage.now()
        coordinator.persistentStores.forEach(coordinator.remove)
        return (end.cpu - start.cpu, end.switches - start.switches)
    }

    /// The median `save()` of one object, and this process's CPU seconds per save.
    private static func saveCost(url: URL, options: [String: any Sendable], saves: Int) throws -> (median: Double, cpu: Double) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        let start = Usage.now()
        var times: [Double] = []
        try context.performAndWait {
            for index in 0..<saves {
                let note = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
                note.setValue("note \(index)", forKey: "text")
                times.append(try Stopwatch.time { try context.save() }.seconds)
            }
        }
        Thread.sleep(forTimeInterval: 1)
        let end = Usage.now()
        coordinator.persistentStores.forEach(coordinator.remove)
        return (Results.median(times) ?? 0, (end.cpu - start.cpu) / Double(saves))
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// This process's CPU time (user + system, every thread) and context switches.
    private struct Usage {
        var cpu: Double
        var switches: Int
        static func now() -> Usage {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
            return Usage(cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime), switches: usage.ru_nvcsw + usage.ru_nivcsw)
        }
    }

    /// The writer child, driven line by line.
    private final class Child {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        var pending = Data()

        init(path: String) throws {
            process.executableURL = URL(fileURLWithPath: ChildLauncher.executablePath)
            process.arguments = [RemoteLatency.childFlag, path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        func readLine() -> String? {
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    return line
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                pending.append(chunk)
            }
        }

        func wait() { process.waitUntilExit() }
    }
}
