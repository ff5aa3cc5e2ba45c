import Foundation

/// Who wrote a transaction of persistent history: the author and name of the context
/// that saved to the store (or executed the batch request), and this process. Carried by
/// every `SaveRequest` and batch request; read only by stores that record history.
struct TransactionOrigin: Sendable {
    /// `ManagedObjectContext.transactionAuthor` of the saving context.
    var author: String?
    /// `ManagedObjectContext.name` of the saving context.
    var contextName: String?

    init(author: String? = nil, contextName: String? = nil) {
        self.author = author
        self.contextName = contextName
    }

    /// Core Data's `bundleID`: the bundle identifier where there is one (Apple's
    /// platforms), else the program's name, which is what identifies an app on Linux.
    static let bundleID: String = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    /// Core Data's `processID`: this process's pid, as text.
    static var processID: String { String(ProcessInfo.processInfo.processIdentifier) }
}
