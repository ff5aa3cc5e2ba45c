import Foundation
import Testing
@testable import ocd_torture
@testable import OpenCoreData
import OpenCoreDataTestSupport

extension FaultInjectionTests {
    /// The same loop over a `BatchDeleteRequest` whose cascade the store applies: each
    /// failure is typed and deletes nothing, and the request then succeeds.
    @Test(arguments: FaultVFS.Mode.allCases)
    func everyFailedIOCallOfABatchDeleteIsTypedAndDeletesNothing(mode: FaultVFS.Mode) throws {
        let folder = try FaultFolder()
        let template = folder.path("template.sqlite")
        try FaultFixture.build(at: template)
        let before = try StoreOracle(path: template).contents()
        var tally = FaultTally()
        var after: [String]?
        for nth in 0...2_000 {
            let path = try folder.copy(template, to: "batch-\(nth).sqlite")
            let stack = try TortureStack(path: path)
            defer { FaultFixture.close(stack) }
            let place = "N = \(nth) \(mode)"
            // N = 0 runs without faults, for the expected content (and proves that an open
            // store's descriptors are seen, so the leak check below means something).
            if nth == 0 { #expect(!folder.openDescriptors().isEmpty) }
            let (result, faults) = FaultVFS.injecting(nth: nth, mode: mode) { try Self.deleteTreeInBatch(stack) }
            if nth > 0 { tally.count(faults: faults, result) }
            switch result {
            case .success:
                let content = try StoreOracle(path: path).contents()
                if let after { #expect(content == after, "\(place): deleted with \(faults) faults") } else { after = content }
            case .failure(let error as CoreDataError):
                #expect(try StoreOracle(path: path).contents() == before, "\(place): the store changed after \(error)")
                try TortureChecks.reopenAndCheckIntegrity(path)
                do {
                    try Self.deleteTreeInBatch(stack)
                    #expect(try StoreOracle(path: path).contents() == after, "\(place): the retried delete")
                } catch let retryError {
                    Issue.record("\(place): the retry after \(error) failed: \(retryError)")
                }
            case .failure(let error):
                Issue.record("\(place): not a CoreDataError: \(error)")
            }
            if nth > 0, faults == 0 { break }
        }
        #expect(after != before)
        #expect(folder.openDescriptors().isEmpty, "file descriptors left open: \(folder.openDescriptors())")
        print("FaultInjectionTests.batchDelete \(mode): \(tally)")
        #expect(tally.typedErrors > 0)
    }

    /// Deletes the fixture's item tree from its root, in the store (cascade included).
    private static func deleteTreeInBatch(_ stack: TortureStack) throws {
        try stack.context.performAndWait {
            let roots = FetchRequest<ManagedObject>(entityName: "Item")
            roots.predicate = try CDPredicate(format: "parent == nil")
            _ = try stack.context.execute(BatchDeleteRequest(fetchRequest: roots))
        }
    }
}
