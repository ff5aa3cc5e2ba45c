import OpenCoreData

extension Item {
    /// The title the root gets when it is created.
    static let rootTitle = "Lists"

    /// How many times `root(in:)` inserts a root and meets another one saved first before
    /// it gives up (each clash means another root was saved: the next fetch finds it).
    static let rootAttempts = 3

    /// The root item: the one with `isRoot`, read from the store, or created and saved at
    /// once when there is none.
    ///
    /// Idempotent across contexts, coordinators and processes: two that start at once both
    /// insert a root, the uniqueness constraint on `isRoot` lets one save win, and the
    /// other's save fails with `.constraintViolation`; it drops its root and reads the
    /// winner's. The creation is kept out of the context's undo stack.
    ///
    /// Call it on the context's queue, with no other unsaved changes (it saves).
    static func root(in context: ManagedObjectContext) throws -> Item {
        let request = FetchRequest<Item>()
        request.predicate = try CDPredicate(format: "isRoot == YES")
        request.fetchLimit = 1
        var lastError: CoreDataError?
        for _ in 0 ..< rootAttempts {
            if let root = try context.fetch(request).first { return root }
            let undoManager = context.undoManager
            undoManager?.disableUndoRegistration()
            defer {
                context.processPendingChanges()
                undoManager?.enableUndoRegistration()
            }
            let root = Item(context: context)
            root.title = rootTitle
            root.isRoot = true
            do {
                try context.save()
                return root
            } catch let error as CoreDataError where error.code == .constraintViolation {
                // Another context or process saved its root first: drop ours, read theirs.
                context.delete(root)
                lastError = error
            }
        }
        throw lastError ?? CoreDataError(.constraintViolation, "No root item could be saved or read.")
    }
}
