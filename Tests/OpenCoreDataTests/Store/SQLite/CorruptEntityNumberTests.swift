import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A row whose `Z_ENT` the model does not define (a damaged file) is a typed
/// `.storeCorrupt` error on every read path, never a crash.
@Suite struct CorruptEntityNumberTests {
    @Test func everyFetchPathReportsTheUnknownEntityNumber() throws {
        let stack = try TestStack.tenSamples(.sqlite)
        try SQLiteInspector(try #require(stack.storeURL)).execute("UPDATE ZSAMPLE SET Z_ENT = 99 WHERE ZKEY = 'k3'")
        try stack.context.performAndWait {
            let objects = try stack.request()
            let batched = try stack.request()
            batched.fetchBatchSize = 4
            let ids = try stack.request()
            ids.resultType = .managedObjectIDResultType
            let cases: [(String, () throws -> Void)] = [
                ("fetch", { _ = try stack.context.fetch(objects) }),
                ("fetchResults", { _ = try stack.context.fetchResults(batched) }),
                ("object IDs", { _ = try stack.context.fetch(ids) }),
                ("batch delete", {
                    let delete = BatchDeleteRequest(fetchRequest: try stack.request("key BEGINSWITH 'k'"))
                    delete.resultType = .resultTypeObjectIDs
                    _ = try stack.context.execute(delete)
                }),
            ]
            for (name, read) in cases {
                let error = try #require(throws: CoreDataError.self, "\(name)") { try read() }
                #expect(error.code == .storeCorrupt, "\(name): \(error.message)")
            }
        }
    }
}
