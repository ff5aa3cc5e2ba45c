import Synchronization

/// The iterators of a context's `changes` and `saves`, each fed from the context's queue.
///
/// Owned by the context and holding no reference to it, so iterating never keeps a
/// context alive; the context's `deinit` calls `finish()`, which ends every iteration.
final class ChangeStreams: Sendable {
    private struct State {
        var changes: [Int: AsyncStream<ObjectChanges>.Continuation] = [:]
        var saves: [Int: AsyncStream<ObjectChanges>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    private let state = SanitizedMutex(State())
    /// Mirrors whether `changes` / `saves` have iterators, read without the lock on every
    /// event and save.
    private let changeIterators = Atomic<Int>(0)
    private let saveIterators = Atomic<Int>(0)

    var isObservingChanges: Bool { changeIterators.load(ordering: .relaxed) > 0 }
    var isObservingSaves: Bool { saveIterators.load(ordering: .relaxed) > 0 }

    enum Kind: Sendable { case changes, saves }

    /// A new stream of `kind`, fed from now on; ended at once when the context is gone.
    func subscribe(_ kind: Kind) -> AsyncStream<ObjectChanges> {
        let (stream, continuation) = AsyncStream<ObjectChanges>.makeStream(bufferingPolicy: .unbounded)
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            switch kind {
            case .changes:
                state.changes[state.nextID] = continuation
                changeIterators.add(1, ordering: .relaxed)
            case .saves:
                state.saves[state.nextID] = continuation
                saveIterators.add(1, ordering: .relaxed)
            }
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id, kind) }
        return stream
    }

    private func unsubscribe(_ id: Int, _ kind: Kind) {
        state.withLock { state in
            switch kind {
            case .changes:
                if state.changes.removeValue(forKey: id) != nil { changeIterators.subtract(1, ordering: .relaxed) }
            case .saves:
                if state.saves.removeValue(forKey: id) != nil { saveIterators.subtract(1, ordering: .relaxed) }
            }
        }
    }

    func yieldChange(_ changes: ObjectChanges) {
        for continuation in state.withLock({ Array($0.changes.values) }) { continuation.yield(changes) }
    }

    func yieldSave(_ changes: ObjectChanges) {
        for continuation in state.withLock({ Array($0.saves.values) }) { continuation.yield(changes) }
    }

    /// Ends every iteration, and any begun later (the context is gone).
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer {
                state.changes = [:]
                state.saves = [:]
                changeIterators.store(0, ordering: .relaxed)
                saveIterators.store(0, ordering: .relaxed)
            }
            return Array(state.changes.values) + Array(state.saves.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// The changes of a context, one element per event or per save (see
/// `ManagedObjectContext.changes` and `.saves`). Each iterator receives what happens
/// after it was made, and ends when the context is deallocated.
public struct ObjectChangesSequence: AsyncSequence, Sendable {
    public typealias Element = ObjectChanges
    let streams: ChangeStreams
    let kind: ChangeStreams.Kind

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<ObjectChanges>.AsyncIterator

        public mutating func next() async -> ObjectChanges? { await base.next() }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> ObjectChanges? {
            await base.next(isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: streams.subscribe(kind).makeAsyncIterator())
    }
}

extension ManagedObjectContext {
    /// The context's events as they end, by object ID: one element per event that changed
    /// something (as `didChangeObjectsNotification`), for code that does not use
    /// `NotificationCenter`. Only iterators made before an event receive it; iteration
    /// ends when the context is deallocated (the sequence does not keep it alive).
    ///
    /// For example:
    ///
    /// ```swift
    /// for await change in context.changes {
    ///     print(change.inserted.count, change.changedKeys)
    /// }
    /// ```
    public var changes: ObjectChangesSequence { ObjectChangesSequence(streams: streams, kind: .changes) }

    /// The context's successful saves, by object ID (as `didSaveObjectIDsNotification`,
    /// with each updated object's changed keys): one element per save.
    public var saves: ObjectChangesSequence { ObjectChangesSequence(streams: streams, kind: .saves) }
}
