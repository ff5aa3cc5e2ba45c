import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

extension FaultInjectionTests {
    /// With persistent history, a save's transaction is recorded last, inside the save's
    /// SQLite transaction: a save that fails at any I/O call — the commit included, after
    /// its `ATRANSACTION` and `ACHANGE` rows were written — leaves no history rows behind,
    /// keeps the context's changes, and records exactly one transaction when retried.
    @Test func everyFailedIOCallOfASaveWithHistoryLeavesNoHistoryRows() throws {
        let folder = try FaultFolder()
        let template = folder.path("template.sqlite")
        try FaultFixture.build(at: template)
        let tracking: [String: any Sendable] = [PersistentHistoryTrackingKey: true]
        var tally = FaultTally()
        for nth in 1...2_000 {
            let path = try folder.copy(template, to: "history-\(nth).sqlite")
            let stack = try TortureStack(path: path, options: tracking)
            defer { FaultFixture.close(stack) }
            let (result, faults) = FaultVFS.injecting(nth: nth, mode: .once) {
                try stack.context.performAndWait {
                    let first = try stack.fetch("Record", "position == 0")[0]
                    first.setValue("changed", forKey: "payload")
                    try stack.fetch("Record", "position == 19").forEach(stack.context.delete)
                    _ = stack.insert("Record", ["batch": Int64(2), "position": Int64(20), "checksum": TortureModel.checksum(batch: 2, position: 20)])
                    try stack.context.save()
                }
            }
            tally.count(faults: faults, result)
            let place = "N = \(nth)"
            let inspector = SQLiteInspector(URL(fileURLWithPath: path))
            let transactions = try inspector.strings("SELECT count(*) FROM ATRANSACTION")
            let changes = try inspector.strings("SELECT count(*) FROM ACHANGE")
            switch result {
            case .success:
                #expect(transactions == ["1"] && changes == ["3"], "\(place): \(transactions) transactions, \(changes) changes")
            case .failure(let error):
                #expect(error is CoreDataError, "\(place): not a CoreDataError: \(error)")
                #expect(transactions == ["0"] && changes == ["0"], "\(place): a failed save left \(transactions) transactions, \(changes) changes")
                #expect(stack.context.performAndWait { stack.context.hasChanges }, "\(place): the failed save dropped the changes")
                try stack.context.performAndWait { try stack.context.save() }
                let retried = try inspector.strings("SELECT count(*) FROM ATRANSACTION")
                #expect(retried == ["1"], "\(place): the retried save recorded \(retried) transactions")
            }
            if faults == 0 { break }
        }
        #expect(tally.typedErrors > 0)
        #expect(folder.openDescriptors().isEmpty, "file descriptors left open: \(folder.openDescriptors())")
    }
}
