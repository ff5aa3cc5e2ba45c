import Foundation
import Logging

/// Persistent history of a SQLite store: opening rules, the newest token, and reading and
/// deleting transactions (`SQLiteHistory` records them).
extension SQLiteStore {
    /// Why a store must open read-only: its file records persistent history but it is
    /// opened without `persistentHistoryTracking` — writing would leave a gap in the
    /// history other readers rely on. Core Data opens such a store read-only with a
    /// warning; so does this (logged once per open). nil when the store may be written.
    static func readOnlyReasonForHistory(_ connection: SQLiteConnection, options: SQLiteStoreOptions) throws -> String? {
        guard !options.tracksHistory, !options.readOnly, try SQLiteHistory.tablesExist(on: connection) else { return nil }
        let reason = "The store at \(connection.path) records persistent history but was opened without PersistentStoreOption.persistentHistoryTracking, so it was opened read-only (as Core Data does); open it with the option to write to it."
        // Made here, not once: a rare warning, logged through whatever handler the
        // program bootstrapped by now (a `static let` logger keeps the one of its first use).
        Logger(label: "OpenCoreData.PersistentHistory").warning("\(reason)")
        return reason
    }

    /// The history of this store's file, when it has history tables: recording when
    /// opened with tracking and writable.
    static func history(on connection: SQLiteConnection, schema: SQLiteSchema, model: ManagedObjectModel,
                        options: SQLiteStoreOptions) throws -> SQLiteHistory? {
        guard options.tracksHistory || connection.readOnlyReason != nil || options.readOnly else { return nil }
        guard try SQLiteHistory.tablesExist(on: connection) else { return nil }
        return SQLiteHistory(connection: connection, schema: schema, model: model,
                             records: options.tracksHistory && !options.readOnly && !connection.isReadOnly)
    }

    func newestHistoryToken() throws -> PersistentHistoryToken? {
        guard history != nil else { return nil }
        guard case .integer(let number) = try connection.cachedStatementScalar("SELECT seq FROM sqlite_sequence WHERE name = 'ATRANSACTION'") else {
            return nil
        }
        return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
    }
}

extension SQLiteConnection {
    /// The first value of the first row of `sql`, through the statement cache; nil for no row.
    func cachedStatementScalar(_ sql: String) throws -> SQLValue? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }
}

extension SQLiteStore {
    var recordsHistory: Bool { history?.records ?? false }

    /// The transactions `request` selects, oldest first, with their changes when
    /// `withChanges`; nil when the file has no history.
    ///
    /// - Throws: `.persistentHistoryTokenExpired` when history after the request's
    ///   token or transaction was deleted.
    func fetchHistory(_ request: PersistentHistoryChangeRequest, withChanges: Bool) throws -> [PersistentHistoryTransaction]? {
        guard let history else { return nil }
        if case .token(let token) = request.bound { try checkNotExpired(token) }
        if case .transaction(let token) = request.bound { try checkNotExpired(token) }
        let (condition, parameters) = Self.historyCondition(request)
        let select = try connection.cachedStatement("""
            SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, b.ZNAME, c.ZNAME, p.ZNAME FROM ATRANSACTION t \
            LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS \
            LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS \
            WHERE \(condition) ORDER BY t.Z_PK
            """)
        defer { select.reset() }
        select.bind(parameters)
        var rows: [(number: Int64, timestamp: Date, author: String?, bundleID: String?, contextName: String?, processID: String?)] = []
        func text(_ column: Int32) -> String? { select.isNull(column) ? nil : select.text(column) }
        while try select.step() {
            rows.append((select.int64(0), Date(timeIntervalSinceReferenceDate: select.double(1)), text(2), text(3), text(4), text(5)))
        }
        let changes = withChanges ? try historyChanges(condition, parameters, history: history) : [:]
        return rows.map { row in
            PersistentHistoryTransaction(
                timestamp: row.timestamp, changes: withChanges ? changes[row.number] ?? [] : nil, storeID: identifier,
                bundleID: row.bundleID ?? "", processID: row.processID ?? "", contextName: row.contextName, author: row.author,
                transactionNumber: row.number)
        }
    }

    /// The changes of the transactions matching `condition`, by transaction number.
    private func historyChanges(_ condition: String, _ parameters: [SQLValue], history: SQLiteHistory) throws -> [Int64: [PersistentHistoryChange]] {
        let inFile = try connection.cachedStatementScalar("SELECT count(*) FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'")
        let tombstoneColumns = min(history.tombstoneSlots.values.map(\.count).max() ?? 0, Int(inFile?.integerValue ?? 0))
        let select = try connection.cachedStatement("""
            SELECT h.Z_PK, h.ZTRANSACTIONID, h.ZCHANGETYPE, h.ZENTITY, h.ZENTITYPK, h.ZCOLUMNS\((0..<tombstoneColumns).map { ", h.ZTOMBSTONE\($0)" }.joined()) \
            FROM ACHANGE h JOIN ATRANSACTION t ON t.Z_PK = h.ZTRANSACTIONID WHERE \(condition) ORDER BY h.Z_PK
            """)
        defer { select.reset() }
        select.bind(parameters)
        var changes: [Int64: [PersistentHistoryChange]] = [:]
        while try select.step() {
            let id = try objectID(entityNumber: select.int64(3), primaryKey: select.int64(4))
            guard let type = PersistentHistoryChangeType(rawValue: Int(select.int64(2))) else {
                throw CoreDataError(.storeCorrupt, "A change in the persistent history of \(url.path) has the unknown type \(select.int64(2)).")
            }
            let slots = id.entity.slots
            var updated: [PropertyDescription]?
            if type == .update, !select.isNull(5) {
                updated = SQLiteHistory.slots(in: select.data(5)).filter { $0 < slots.properties.count }.map { slots.properties[$0] }
            }
            var tombstone: [String: Any]?
            if type == .delete {
                var values: [String: Any] = [:]
                for (index, slot) in (history.tombstoneSlots[slots.number] ?? []).prefix(tombstoneColumns).enumerated() {
                    let column = Int32(6 + index)
                    guard !select.isNull(column), let attribute = slots.attributes[slot],
                          let value = try attribute.value(from: select.value(at: column)) else { continue }
                    values[attribute.name] = value
                }
                tombstone = values
            }
            let number = select.int64(1)
            changes[number, default: []].append(PersistentHistoryChange(
                changeID: select.int64(0), changedObjectID: id, changeType: type, tombstone: tombstone,
                updatedProperties: updated, transactionNumber: number))
        }
        return changes
    }

    /// Deletes the transactions `request` selects with their changes; returns how many
    /// transactions went, or nil when the file has no history.
    func deleteHistory(_ request: PersistentHistoryChangeRequest) throws -> Int? {
        guard history != nil else { return nil }
        let (condition, parameters) = Self.historyCondition(request)
        return try connection.inTransaction {
            let changes = try connection.cachedStatement("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))")
            changes.bind(parameters)
            defer { changes.reset() }
            try changes.run()
            let transactions = try connection.cachedStatement("DELETE FROM ATRANSACTION WHERE Z_PK IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))")
            transactions.bind(parameters)
            defer { transactions.reset() }
            try transactions.run()
            return connection.changes
        }
    }

    /// The SQL condition on `ATRANSACTION t` that selects what `request` fetches or deletes.
    private static func historyCondition(_ request: PersistentHistoryChangeRequest) -> (String, [SQLValue]) {
        let fetches = request.operation == .fetch
        switch request.bound {
        case .all: return ("1", [])
        case .token(let token): return (fetches ? "t.Z_PK > ?" : "t.Z_PK <= ?", [.integer(token.transactionNumber)])
        case .transaction(let token): return (fetches ? "t.Z_PK > ?" : "t.Z_PK < ?", [.integer(token.transactionNumber)])
        case .date(let date): return (fetches ? "t.ZTIMESTAMP > ?" : "t.ZTIMESTAMP < ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// Throws `.persistentHistoryTokenExpired` when transactions after `token` were
    /// deleted: a reader holding it would miss them.
    private func checkNotExpired(_ token: PersistentHistoryToken) throws {
        let oldest = try connection.cachedStatementScalar("SELECT min(Z_PK) FROM ATRANSACTION")?.integerValue
        let newest = try connection.cachedStatementScalar("SELECT seq FROM sqlite_sequence WHERE name = 'ATRANSACTION'")?.integerValue ?? 0
        let firstKept = oldest ?? newest + 1
        guard token.transactionNumber < firstKept - 1 else { return }
        throw CoreDataError(.persistentHistoryTokenExpired,
            "The history after \(token) was deleted (the oldest transaction kept in \(url.lastPathComponent) is #\(firstKept)): fetch again from a nil token.")
    }
}

private extension SQLValue {
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
