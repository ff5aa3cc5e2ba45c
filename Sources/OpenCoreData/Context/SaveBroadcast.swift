/// A source of saves: the contexts that merge them automatically
/// (`automaticallyMergesChangesFromParent`), told of each save asynchronously on their
/// own queues.
///
/// A `PersistentStoreCoordinator` has one, for the saves of the contexts on it; a parent
/// context would have one for the saves it receives (see
/// `ManagedObjectContext.automaticMergeSource`). Subscribers are held weakly: a context
/// that merges automatically is not kept alive by its source (the weak reference gives
/// that context a side table, which only such contexts pay for).
final class SaveBroadcast: Sendable {
    private struct Subscriber {
        weak var context: ManagedObjectContext?
    }

    private let subscribers = SanitizedMutex<[Subscriber]>([])

    func subscribe(_ context: ManagedObjectContext) {
        subscribers.withLock { list in
            list.removeAll { $0.context == nil || $0.context === context }
            list.append(Subscriber(context: context))
        }
    }

    func unsubscribe(_ context: ManagedObjectContext) {
        subscribers.withLock { list in list.removeAll { $0.context == nil || $0.context === context } }
    }

    /// Hands `changes`, saved by `origin`, to every other subscriber, on its queue.
    func publish(_ changes: ObjectChanges, from origin: ManagedObjectContext) {
        let receivers = subscribers.withLock { list in list.compactMap { $0.context }.filter { $0 !== origin } }
        for receiver in receivers {
            receiver.perform { receiver.mergeAutomatically(changes) }
        }
    }
}
