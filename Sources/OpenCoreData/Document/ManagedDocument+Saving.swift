import Foundation

// MARK: - Saving and autosaving

extension ManagedDocument {
    /// Saves the document's changes if it has any (UIKit's `autosave(completionHandler:)`);
    /// `completionHandler` gets whether all is saved, on the main queue.
    public func autosave(completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        Self.onMainQueue { [self] in
            guard isOpen, hasUnsavedChanges else {
                completionHandler?(true)
                return
            }
            saveChanges { completionHandler?($0) }
        }
    }

    /// Writes the context's changes: into the writer (on the main queue), then the writer's
    /// into the store (on the writer's queue, under the context's merge policy); `done`
    /// gets whether both succeeded, on the main queue. A failure sets `.savingError` (and
    /// `.inConflict` for an unresolved merge conflict) and keeps the changes, in the
    /// context or the writer, for the next save.
    func saveChanges(_ done: @escaping @Sendable (Bool) -> Void) {
        if managedObjectContext.hasChanges {
            do {
                // New objects take their permanent IDs now, so that the context holds
                // them under the IDs the store's history (merges of other editors'
                // saves) names them by; a child keeps temporary IDs otherwise.
                try managedObjectContext.obtainPermanentIDs(for: Array(managedObjectContext.insertedObjects))
                try managedObjectContext.save()
            } catch {
                savingFailed(error)
                done(false)
                return
            }
        }
        let policy = managedObjectContext.mergePolicy
        writer.perform { [self] in
            writer.mergePolicy = policy
            var failure: (any Error)?
            if writer.hasChanges {
                do { try writer.save() } catch { failure = error }
            }
            let left = writer.hasChanges
            DispatchQueue.main.async { [self] in
                lock.withLock { status.writerHasChanges = left }
                if let failure { savingFailed(failure) } else { savingSucceeded() }
                done(failure == nil)
            }
        }
    }

    private func savingFailed(_ error: any Error) {
        var state = documentState.union(.savingError)
        if (error as? CoreDataError)?.code == .mergeConflict { state.insert(.inConflict) }
        setState(state)
        handleError(error, userInteractionPermitted: false)
    }

    private func savingSucceeded() {
        setState(documentState.subtracting([.savingError, .inConflict]))
    }

    // MARK: - Autosave

    /// Schedules an autosave after each edit of the context (its did-change notification,
    /// posted on the main queue): the last edit's timer wins, so a burst of edits is saved
    /// once, `autosaveDelay` seconds after it ends.
    func observeEdits() {
        let observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: managedObjectContext, queue: nil
        ) { [weak self] _ in self?.contextDidChange() }
        lock.withLock { status.observers.append(observer) }
    }

    private func contextDidChange() {
        guard isOpen, managedObjectContext.hasChanges else { return }
        let (generation, delay) = lock.withLock { () -> (Int, TimeInterval) in
            status.editGeneration += 1
            return (status.editGeneration, status.autosaveDelay)
        }
        guard delay > 0 else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, lock.withLock({ status.editGeneration == generation }) else { return }
            autosave()
        }
    }
}
