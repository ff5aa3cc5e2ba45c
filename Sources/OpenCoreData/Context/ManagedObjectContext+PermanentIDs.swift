import Foundation

extension ManagedObjectContext {
    // MARK: - Consumers of new permanent IDs

    /// Calls `receive` with the objects whose temporary IDs a save or
    /// `obtainPermanentIDs(for:)` just replaced with permanent ones, on the context's queue;
    /// returns a token for `removePermanentIDConsumer(_:)`. That is no change of the
    /// objects (no event records it), but whoever reported their IDs — a fetched results
    /// controller's difference or snapshot — must report the new ones.
    @_spi(ChangeTracking) @discardableResult
    public func addPermanentIDConsumer(_ receive: @escaping ([ManagedObject]) -> Void) -> Int {
        nextConsumerID += 1
        permanentIDConsumers.append((nextConsumerID, receive))
        return nextConsumerID
    }

    /// Stops telling the consumer `token` names.
    @_spi(ChangeTracking)
    public func removePermanentIDConsumer(_ token: Int) {
        permanentIDConsumers.removeAll { $0.id == token }
    }

    /// Tells every consumer that `objects` may have new IDs.
    func reportPermanentIDs(of objects: [ManagedObject]) {
        guard !objects.isEmpty else { return }
        for consumer in permanentIDConsumers { consumer.receive(objects) }
    }
}
