import Foundation

/// A place in a store's persistent history (`NSPersistentHistoryToken`): the newest
/// transaction an app has seen. `Codable`, so an app can keep the last token it merged
/// and fetch only what came after it on its next launch.
public struct PersistentHistoryToken: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The identifier (`NSStoreUUID`) of the store the transaction was recorded in.
    public let storeIdentifier: String
    /// The transaction's number in that store's history; later transactions have larger ones.
    public let transactionNumber: Int64

    package init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public var description: String { "PersistentHistoryToken(\(storeIdentifier) #\(transactionNumber))" }
}
