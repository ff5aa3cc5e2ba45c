import Foundation

extension ManagedObjectContext {
    // MARK: - Events

    /// Ends the current event: applies delete rules to objects deleted since the last
    /// call, then closes the event's record of changes. `save()`, fetches, counts and the
    /// end of each `perform` block call it (not `performAndWait`, as in Core Data); on a
    /// `.mainQueue` context an event also ends by itself once the code that began it
    /// returns (Core Data ends those from the main run loop, which Linux lacks).
    public func processPendingChanges() {
        checkQueue()
        applyPendingDeleteRules()
        closeEvent()
        undoState?.eventDidEnd()
    }

    /// Called at each object's first touch in an event and at each delete: on a
    /// `.mainQueue` context (standing in for Core Data's run loop), schedules the event's
    /// end on the main queue, once, when it matters — someone consumes change sets, or
    /// delete rules are pending. A `.privateQueue` context's events end with its
    /// `perform` blocks, or at the next save, fetch or `processPendingChanges()`.
    func eventDidBegin() {
        guard concurrencyType == .mainQueue, !isEventEndScheduled, !changeConsumers.isEmpty || !pendingDeletes.isEmpty, isOnQueue else { return }
        isEventEndScheduled = true
        // Held strongly until the block runs: a weak reference would give the context a
        // side table, which makes every retain and release of it a slow call.
        queue.async {
            self.isEventEndScheduled = false
            self.processPendingChanges()
        }
    }

    /// Closes the ledger into a `ChangeSet` for the consumers, and begins the next event.
    private func closeEvent() {
        guard !ledger.isEmpty else { return }
        let (merged, isMerge) = (ledger.mergedInserts, ledger.isMerge)
        let (touches, refreshed) = ledger.close()
        eventNumber &+= 1
        if eventNumber == 0 {
            // Wrapped: no object may keep a number that could match a later event.
            for object in pendingObjects { object.forgetEvents() }
            for reference in registry.values { reference.takeUnretainedValue().forgetEvents() }
            eventNumber = 1
        }
        if pendingObjects.count >= compactionThreshold { compactPendingObjects() }
        guard !changeConsumers.isEmpty else { return }
        var changes = ChangeSet(touches: touches, refreshedIDs: refreshed, in: self)
        if isMerge { changes.noteMerge(inserted: merged, in: self) }
        endEvent(with: changes)
    }

    /// Hands a closed event's changes to every consumer.
    func endEvent(with changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        for consumer in changeConsumers { consumer.receive(changes) }
    }

    // MARK: - Consumers of change sets

    /// Calls `receive` with the `ChangeSet` of every later event, on the context's queue;
    /// returns a token for `removeChangeConsumer(_:)`. The open event ends first (its
    /// changes so far were not recorded for anyone).
    @_spi(ChangeTracking) @discardableResult
    public func addChangeConsumer(_ receive: @escaping (ChangeSet) -> Void) -> Int {
        // Nothing open at `init` (which adds the notifications' consumer, on any thread).
        if !ledger.isEmpty || !pendingDeletes.isEmpty { processPendingChanges() }
        nextConsumerID += 1
        changeConsumers.append((nextConsumerID, receive))
        ledger.isRecording = true
        return nextConsumerID
    }

    /// Stops delivering change sets to the consumer `token` names.
    @_spi(ChangeTracking)
    public func removeChangeConsumer(_ token: Int) {
        changeConsumers.removeAll { $0.id == token }
        ledger.isRecording = !changeConsumers.isEmpty
    }

    /// Undoes the event `changes` records: each object back as its snapshot was. The
    /// restoring is itself a change, recorded in the open event.
    func restore(_ changes: ChangeSet) {
        let permanentIDs = undoPermanentIDs
        for touch in changes.snapshots.reversed() { touch.object.restore(touch.before, in: self, permanentIDs: permanentIDs) }
    }
}
