import Foundation
import OpenCoreData

/// Another process writing a store that the parent watches for remote changes. Opens the
/// store with history tracking and remote change notifications (its context's
/// `transactionAuthor` is `remote-writer`), prints `armed`, then
/// runs one command per line of standard input:
/// - `save TITLE`: inserts an `Item` titled TITLE and saves; prints `ack save TITLE`.
/// - `batch GROUP`: sets every `Item`'s group to GROUP with a batch update; prints
///   `ack batch COUNT`.
/// - `quit` (or the end of input): ends.
/// Each remote change notification this process receives itself prints `notified`.
struct RemoteWriter {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let stack = try TortureStack(path: arguments.store, options: [
            PersistentStoreOption.persistentHistoryTracking: true,
            PersistentStoreOption.remoteChangeNotificationPost: true,
        ])
        stack.context.transactionAuthor = "remote-writer"
        let observer = NotificationCenter.default.addObserver(
            forName: PersistentStoreCoordinator.storeRemoteChangeNotification, object: stack.coordinator, queue: nil
        ) { _ in emit("notified") }
        defer { NotificationCenter.default.removeObserver(observer) }
        emit("armed")
        while let line = readLine() {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let command = words.first else { continue }
            let argument = words.count > 1 ? words[1] : ""
            switch command {
            case "save":
                try stack.context.performAndWait {
                    _ = stack.insert("Item", ["title": argument])
                    try stack.context.save()
                }
                emit("ack save \(argument)")
            case "batch":
                let count = try stack.context.performAndWait {
                    let request = BatchUpdateRequest(entityName: "Item")
                    request.propertiesToUpdate = ["group": argument]
                    request.resultType = .updatedObjectsCountResultType
                    return try stack.context.execute(request).result as? Int ?? -1
                }
                emit("ack batch \(count)")
            case "quit":
                return
            default:
                emit("error unknown command \(command)")
            }
        }
    }
}
