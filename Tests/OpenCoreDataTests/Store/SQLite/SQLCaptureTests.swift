import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// `capturingSQL`: the statements a SQLite store ran during a block, in order, and only those.
@Suite struct SQLCaptureTests {
    @Test func aSaveRunsOneTransactionOfInserts() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            _ = stack.insertItemTree()
            let sql = try stack.capturingSQL { try stack.context.save() }
            #expect(sql.first == "BEGIN IMMEDIATE")
            #expect(sql.last == "COMMIT")
            #expect(sql.filter { $0.hasPrefix("INSERT INTO ZITEM") }.count >= 1, "\(sql)")
            #expect(!sql.contains { $0.hasPrefix("SELECT") && $0.contains("FROM ZITEM") }, "a save of new objects reads no rows: \(sql)")
        }
    }

    @Test func onlyTheBlocksStatementsAreCaptured() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "one"])
            try stack.context.save()
            let fetch = try stack.capturingSQL { _ = try stack.fetch("Item") }
            try stack.context.save()  // nothing to save: no statement
            _ = stack.insert("Item", ["title": "two"])
            try stack.context.save()  // after the capture: not recorded
            #expect(fetch.count == 1, "\(fetch)")
            #expect(fetch.first?.hasPrefix("SELECT") == true)
            #expect(fetch.first?.contains("FROM ZITEM") == true)
            #expect(stack.capturingSQL {}.isEmpty)
        }
    }

    @Test func theInMemoryStoreCapturesNothing() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        let sql = try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "one"])
            return try stack.capturingSQL { try stack.context.save() }
        }
        #expect(sql.isEmpty)
    }
}
