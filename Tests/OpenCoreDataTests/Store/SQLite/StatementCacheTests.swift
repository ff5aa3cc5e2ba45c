import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// The connection's prepared-statement cache: windows share one statement, and the cache
/// stays bounded however many distinct statements run.
@Suite struct StatementCacheTests {
    @Test func everyWindowOfAQuerySharesOneStatement() throws {
        let stack = try TestStack.tenSamples(.sqlite)
        let connection = try #require(stack.coordinator.persistentStores.first?.backend as? SQLiteStore).connection
        try stack.context.performAndWait {
            let request = try stack.request("int64 >= 0", sortedBy: ["int64"])
            request.fetchLimit = 2
            _ = try stack.context.fetch(request)
            let before = connection.cachedStatementCount
            for offset in 0..<50 {
                request.fetchOffset = offset
                let expected = offset < 10 ? Array(["k9", "k8", "k7", "k6", "k5", "k4", "k3", "k2", "k1", "k0"][offset ..< min(offset + 2, 10)]) : []
                #expect(try stack.keys(request) == expected, "offset \(offset)")
            }
            #expect(connection.cachedStatementCount <= before + 1)
            // An offset without a limit binds LIMIT -1.
            request.fetchLimit = 0
            request.fetchOffset = 8
            #expect(try stack.keys(request) == ["k1", "k0"])
            #expect(try stack.context.count(for: request) == 2)
        }
    }

    @Test func theCacheStaysBoundedAndEvictedStatementsStillWork() throws {
        let folder = TemporaryFolder()
        let connection = try SQLiteConnection(path: folder.file().path)
        try connection.execute("CREATE TABLE t (x INTEGER)")
        try connection.execute("INSERT INTO t VALUES (1), (2), (3)")
        func sum(plus number: Int) throws -> Int64 {
            let statement = try connection.cachedStatement("SELECT sum(x) + \(number) FROM t")
            defer { statement.reset() }
            #expect(try statement.step())
            return statement.int64(0)
        }
        for number in 0..<1_000 {
            #expect(try sum(plus: number) == Int64(6 + number))
            #expect(connection.cachedStatementCount <= SQLiteConnection.statementCacheCapacity)
        }
        #expect(connection.cachedStatementCount == SQLiteConnection.statementCacheCapacity)
        // Evicted long ago, prepared again.
        #expect(try sum(plus: 0) == 6)
        // A statement evicted while it is being stepped stays valid for its user.
        let held = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(try held.step())
        for number in 1_000..<1_300 { _ = try sum(plus: number) }
        var values = [held.int64(0)]
        while try held.step() { values.append(held.int64(0)) }
        #expect(values == [1, 2, 3])
        held.reset()
    }

    @Test func rowsSteppedLeaveOutDataVersionChecks() throws {
        let stack = try TestStack.tenSamples(.sqlite)
        let store = try #require(stack.coordinator.persistentStores.first?.backend as? SQLiteStore)
        let before = stack.coordinator.steppedRowCount
        _ = try store.hasExternalChanges()
        #expect(stack.coordinator.steppedRowCount == before)
        try stack.context.performAndWait {
            _ = try stack.context.fetch(stack.request("int64 < 4"))
        }
        #expect(stack.coordinator.steppedRowCount == before + 4)
    }
}
