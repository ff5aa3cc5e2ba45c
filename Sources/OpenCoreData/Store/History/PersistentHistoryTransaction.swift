import Foundation

/// One save (or batch request) recorded in a store's persistent history
/// (`NSPersistentHistoryTransaction`): when, by whom, and the objects it changed.
public struct PersistentHistoryTransaction: Sendable, CustomStringConvertible {
    /// When the transaction was committed.
    public let timestamp: Date
    /// Its changes, in the order they were recorded; nil when the request asked for
    /// transactions only.
    public let changes: [PersistentHistoryChange]?
    /// The identifier of the store it was recorded in (`NSStoreUUID`).
    public let storeID: String
    /// The program that wrote it: its bundle identifier, or on Linux its name.
    public let bundleID: String
    /// The process that wrote it: its pid, as text.
    public let processID: String
    /// `ManagedObjectContext.name` of the context that saved.
    public let contextName: String?
    /// `ManagedObjectContext.transactionAuthor` of the context that saved.
    public let author: String?
    /// Its number in its store's history; later transactions have larger numbers.
    public let transactionNumber: Int64

    /// The place right after this transaction, to fetch what came later.
    public var token: PersistentHistoryToken { PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: transactionNumber) }

    /// A did-save notification holding the object IDs this transaction inserted, updated
    /// and deleted (`inserted_objectIDs`, `updated_objectIDs`, `deleted_objectIDs`), for
    /// `ManagedObjectContext.mergeChanges(fromContextDidSave:)`. Empty sets when the
    /// transaction was fetched without its changes.
    public func objectIDNotification() -> Notification {
        var saved = ObjectChanges()
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: saved.inserted.insert(change.changedObjectID)
            case .update: saved.updated.insert(change.changedObjectID)
            case .delete: saved.deleted.insert(change.changedObjectID)
            }
        }
        return Notification(name: ManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: saved.objectIDUserInfo)
    }

    public var description: String {
        "PersistentHistoryTransaction(#\(transactionNumber) \(author.map { "by \($0) " } ?? "")at \(timestamp), \(changes?.count ?? 0) change(s))"
    }
}
