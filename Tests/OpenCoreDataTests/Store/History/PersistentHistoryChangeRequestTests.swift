import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// Fetching and deleting persistent history with `PersistentHistoryChangeRequest`.
@Suite struct PersistentHistoryChangeRequestTests {
    /// Three transactions: inserts of A, of B, of C.
    private func threeTransactions() throws -> (HistoryStack, [PersistentHistoryTransaction]) {
        let stack = try HistoryStack()
        for title in ["A", "B", "C"] { try stack.insertAndSave([title]) }
        let transactions = try stack.history()
        #expect(transactions.count == 3)
        return (stack, transactions)
    }

    @Test func fetchesAfterATokenADateOrATransaction() throws {
        let (stack, all) = try threeTransactions()
        #expect(try stack.history(after: all[0].token).map(\.transactionNumber) == all.dropFirst().map(\.transactionNumber))
        #expect(try stack.history(after: all[2].token).isEmpty)
        #expect(try stack.execute(.fetchHistory(after: all[1])).transactions.map(\.transactionNumber) == [all[2].transactionNumber])
        #expect(try stack.execute(.fetchHistory(after: nil)).transactions.count == 3)
        #expect(try stack.execute(.fetchHistory(after: all[0].timestamp)).transactions.count == 2)
        #expect(try stack.execute(.fetchHistory(after: Date.distantPast)).transactions.count == 3)
        #expect(try stack.execute(.fetchHistory(after: Date.distantFuture)).transactions.isEmpty)
    }

    @Test func resultTypes() throws {
        let (stack, all) = try threeTransactions()
        func run(_ type: PersistentHistoryResultType) throws -> PersistentHistoryResult {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: all[0].token)
            request.resultType = type
            return try stack.execute(request)
        }
        let expectedIDs = all.dropFirst().flatMap { $0.changes!.map(\.changedObjectID) }
        #expect(try run(.transactionsAndChanges).transactions.map { $0.changes?.count } == [1, 1])
        #expect(try run(.transactionsOnly).transactions.map { $0.changes == nil } == [true, true])
        #expect(try run(.changesOnly).changes.map(\.changedObjectID) == expectedIDs)
        #expect(try run(.objectIDs).result as? [ManagedObjectID] == expectedIDs)
        #expect(try run(.count).count == 2)
        #expect(try run(.statusOnly).result as? Bool == true)
    }

    @Test func deleteHistoryRemovesTheRowsFromTheFile() throws {
        let (stack, all) = try threeTransactions()
        #expect(try stack.rows(in: "ATRANSACTION") == 3 && stack.rows(in: "ACHANGE") == 3)
        // Up to and including the token's transaction.
        let request = PersistentHistoryChangeRequest.deleteHistory(before: all[0].token)
        request.resultType = .count
        #expect(try stack.execute(request).count == 1)
        #expect(try stack.rows(in: "ATRANSACTION") == 2 && stack.rows(in: "ACHANGE") == 2)
        #expect(try stack.history().map(\.transactionNumber) == all.dropFirst().map(\.transactionNumber))
        // Before a transaction: strictly older ones.
        _ = try stack.execute(.deleteHistory(before: all[2]))
        #expect(try stack.history().map(\.transactionNumber) == [all[2].transactionNumber])
        // Before a date: everything older.
        _ = try stack.execute(.deleteHistory(before: Date.distantFuture))
        #expect(try stack.rows(in: "ATRANSACTION") == 0 && stack.rows(in: "ACHANGE") == 0)
        // Numbers are never reused: the next save continues after the deleted ones.
        try stack.insertAndSave(["D"])
        #expect(try stack.history().map(\.transactionNumber) == [all[2].transactionNumber + 1])
    }

    /// A token whose later history was deleted is refused with Core Data's
    /// NSPersistentHistoryTokenExpiredError (134301): a reader holding it would miss
    /// transactions.
    @Test func aTokenWhoseHistoryWasDeletedHasExpired() throws {
        let (stack, all) = try threeTransactions()
        _ = try stack.execute(.deleteHistory(before: all[1].token))
        // The reader that merged up to the deleted point is fine; one before it is not.
        #expect(try stack.history(after: all[1].token).count == 1)
        let error = try #require(throws: CoreDataError.self) { try stack.history(after: all[0].token) }
        #expect(error.code == .persistentHistoryTokenExpired)
        #expect(error.code.rawValue == 134301)
    }

    @Test func aTokenOfAnotherStoreIsRefused() throws {
        let (stack, _) = try threeTransactions()
        let foreign = PersistentHistoryToken(storeIdentifier: UUID().uuidString, transactionNumber: 1)
        let error = try #require(throws: CoreDataError.self) { try stack.history(after: foreign) }
        #expect(error.code == .persistentHistoryTokenExpired)
        #expect(error.message.contains(foreign.storeIdentifier))
    }

    @Test func theTokenRoundTripsThroughCodable() throws {
        let (stack, all) = try threeTransactions()
        let data = try JSONEncoder().encode(all[1].token)
        let decoded = try JSONDecoder().decode(PersistentHistoryToken.self, from: data)
        #expect(decoded == all[1].token)
        #expect(try stack.history(after: decoded).map(\.transactionNumber) == [all[2].transactionNumber])
    }

    /// Another coordinator on the same file (another process) sees the same history,
    /// and its saves continue the numbering.
    @Test func anotherCoordinatorReadsAndExtendsTheSameHistory() throws {
        let (stack, all) = try threeTransactions()
        let other = try stack.reopened()
        #expect(try other.history().map(\.transactionNumber) == all.map(\.transactionNumber))
        try other.insertAndSave(["D"], author: "other")
        let latest = try stack.history(after: all[2].token)
        #expect(latest.map(\.author) == ["other"])
        #expect(try stack.store.backend.newestHistoryToken() == latest.first?.token)
    }
}
