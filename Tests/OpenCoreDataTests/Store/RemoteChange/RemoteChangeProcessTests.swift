import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `storeRemoteChangeNotification` across two real processes: the `ocd-torture
/// remote-writer` child opens the same store file and writes when told (one line of its
/// standard input per command); this process is notified within the bound, and the other
/// way round.
@Suite(.serialized) struct RemoteChangeProcessTests {
    private static let bound = RemoteChangeNotificationTests.bound
    private static let options: [String: any Sendable] = [
        PersistentStoreOption.remoteChangeNotificationPost: true,
        PersistentStoreOption.persistentHistoryTracking: true,
    ]

    /// This process's stack on `path` (creating the store) and the child on the same file,
    /// armed, with whatever its opening posted already behind us.
    private func start(_ path: String) throws -> (TortureStack, RemoteChangeRecorder, ChildProcess) {
        let helper = try KillRound.helper()
        let stack = try TortureStack(path: path, options: Self.options)
        let recorder = RemoteChangeRecorder(stack.coordinator)
        let child = try ChildProcess(helper.binary, ["remote-writer", "--store", path, "--seconds", "60"])
        let armed = child.waitForLine(timeout: 30) { $0 == "armed" }
        try #require(armed != nil, "the child did not start: \(child.standardError)")
        return (stack, recorder, child)
    }

    @Test func anotherProcessesSavesArePostedWithinTheBound() throws {
        let folder = TemporaryFolder()
        let (stack, recorder, child) = try start(folder.file().path)
        var latencies: [Int] = []
        for round in 1...5 {
            let sent = Date()
            child.send("save remote-\(round)")
            let ack = try #require(child.waitForLine(timeout: 10) { $0 == "ack save remote-\(round)" }, "round \(round): no ack")
            let note = recorder.first(after: sent, timeout: Self.bound + ack.time.timeIntervalSince(sent))
            #expect(note != nil, "round \(round): not posted within \(Self.bound) s of the child's commit")
            if let note {
                #expect(note.time.timeIntervalSince(ack.time) < Self.bound)
                #expect(note.userInfo[PersistentStoreURLKey] as? URL == folder.file())
                latencies.append(Int(note.time.timeIntervalSince(sent) * 1000))
            }
        }
        print("RemoteChangeProcessTests: command → notification, ms: \(latencies)")
        child.send("quit")
        #expect(child.finish(timeout: 10).lines.last?.text == "done")
        // The child's rows are really there for this process.
        let count = try stack.context.performAndWait { try stack.fetch("Item").count }
        #expect(count == 5)
    }

    @Test func anotherProcessesBatchUpdateIsPosted() throws {
        let folder = TemporaryFolder()
        let (stack, recorder, child) = try start(folder.file().path)
        defer { withExtendedLifetime(stack) {} }
        child.send("save one")
        _ = child.waitForLine(timeout: 10) { $0 == "ack save one" }
        _ = recorder.first(after: Date.distantPast, timeout: Self.bound)
        let sent = Date()
        child.send("batch batched")
        let ack = child.waitForLine(timeout: 10) { $0.hasPrefix("ack batch") }
        #expect(ack?.text == "ack batch 1")
        #expect(recorder.first(after: sent, timeout: Self.bound + 1) != nil, "the other process's batch update was not posted")
        child.send("quit")
        _ = child.finish(timeout: 10)
    }

    @Test func thisProcessesSaveIsPostedInTheOtherProcess() throws {
        let folder = TemporaryFolder()
        let (stack, _, child) = try start(folder.file().path)
        let before = child.output.filter { $0.text == "notified" }.count
        let saved = Date()
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "from the test"])
            try stack.context.save()
        }
        let line = child.waitForLine(occurrence: before + 1, timeout: Self.bound + 1) { $0 == "notified" }
        #expect(line != nil, "the child was not notified of this process's save")
        if let line { #expect(line.time.timeIntervalSince(saved) < Self.bound + 0.5) }
        child.send("quit")
        _ = child.finish(timeout: 10)
    }
}
