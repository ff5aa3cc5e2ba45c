import Foundation

/// What a `PersistentHistoryChangeRequest` returns (`NSPersistentHistoryResultType`).
public enum PersistentHistoryResultType: Int, Sendable {
    /// `true` once the request ran.
    case statusOnly = 0
    /// The IDs of the objects the fetched changes name (`[ManagedObjectID]`, in order).
    case objectIDs = 1
    /// How many transactions the request fetched or deleted (`Int`).
    case count = 2
    /// `[PersistentHistoryTransaction]` without their changes (`changes` is nil).
    case transactionsOnly = 3
    /// `[PersistentHistoryChange]` of every fetched transaction, in order.
    case changesOnly = 4
    /// `[PersistentHistoryTransaction]` with their changes (the default).
    case transactionsAndChanges = 5
}

/// A request to fetch or delete persistent history (`NSPersistentHistoryChangeRequest`),
/// run with `ManagedObjectContext.execute(_:)` on a context whose stores track history
/// (`PersistentStoreOption.persistentHistoryTracking`).
///
/// For example, merging what other processes saved since the last token:
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let transactions = try context.execute(request).transactions
/// for transaction in transactions { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
/// lastToken = transactions.last?.token ?? lastToken
/// ```
///
/// A token or transaction bound reads (or deletes in) the store it was recorded in; a
/// date bound, or a nil token, every store of the coordinator that has history.
public final class PersistentHistoryChangeRequest: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: a request is configured once, then only read; `resultType`
    // is set by its owner before `execute(_:)`, as with Core Data's requests.

    enum Operation { case fetch, delete }

    /// Where the request starts (fetch) or ends (delete).
    enum Bound {
        /// Everything.
        case all
        /// Transactions after (fetch) or up to and including (delete) the token's.
        case token(PersistentHistoryToken)
        /// Transactions after (fetch) or before (delete) the date.
        case date(Date)
        /// Transactions after (fetch) or before (delete) the transaction.
        case transaction(PersistentHistoryToken)
    }

    let operation: Operation
    let bound: Bound
    /// What `execute(_:)` returns; `.transactionsAndChanges` by default.
    public var resultType: PersistentHistoryResultType = .transactionsAndChanges

    init(_ operation: Operation, _ bound: Bound) {
        self.operation = operation
        self.bound = bound
    }

    /// The token the request was made with, if any.
    public var token: PersistentHistoryToken? {
        if case .token(let token) = bound { return token }
        return nil
    }

    // MARK: - Fetching

    /// The transactions recorded after `token` (every transaction for nil).
    ///
    /// Executing it throws `.persistentHistoryTokenExpired` when history after the
    /// token was deleted, or when no store of the coordinator has the token's store
    /// identifier: start again from a nil token then.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetch, token.map { .token($0) } ?? .all)
    }

    /// The transactions recorded after `date`.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetch, .date(date))
    }

    /// The transactions recorded after `transaction`. (Core Data's takes an optional;
    /// this one does not, so that `fetchHistory(after: nil)` is the token form.)
    public static func fetchHistory(after transaction: PersistentHistoryTransaction) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetch, .transaction(transaction.token))
    }

    // MARK: - Deleting

    /// Deletes the transactions up to and including `token`'s (all history for nil):
    /// what a reader that merged up to `token` no longer needs.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.delete, token.map { .token($0) } ?? .all)
    }

    /// Deletes the transactions recorded before `date`.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.delete, .date(date))
    }

    /// Deletes the transactions recorded before `transaction` (non-optional, as for
    /// `fetchHistory(after:)`).
    public static func deleteHistory(before transaction: PersistentHistoryTransaction) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.delete, .transaction(transaction.token))
    }

    /// The identifier of the one store the request is about, for token and transaction
    /// bounds; nil when it is about every store.
    var storeIdentifier: String? {
        switch bound {
        case .token(let token), .transaction(let token): token.storeIdentifier
        case .all, .date: nil
        }
    }

    public var description: String {
        "PersistentHistoryChangeRequest(\(operation == .fetch ? "fetch after" : "delete before") \(bound))"
    }
}

/// What executing a `PersistentHistoryChangeRequest` returned
/// (`NSPersistentHistoryResult`): `result` holds the value the request's `resultType`
/// names; the typed accessors read it.
public final class PersistentHistoryResult: PersistentStoreResult {
    /// The fetched transactions (`.transactionsAndChanges`, `.transactionsOnly`); empty otherwise.
    public var transactions: [PersistentHistoryTransaction] { result as? [PersistentHistoryTransaction] ?? [] }
    /// The fetched changes (`.changesOnly`); empty otherwise.
    public var changes: [PersistentHistoryChange] { result as? [PersistentHistoryChange] ?? [] }
    /// The number of transactions fetched or deleted (`.count`); nil otherwise.
    public var count: Int? { result as? Int }
}
