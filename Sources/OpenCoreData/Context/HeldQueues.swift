import Foundation

/// The context queues the current thread holds: those whose blocks it is running, further
/// up its stack. A context asks it when deciding whether `performAndWait` may run inline.
///
/// Dispatch answers "which queue runs this block" only for the innermost block. A parent
/// context's block that saves a child context runs the child's block inline (a
/// `DispatchQueue.sync` on a private queue runs on the calling thread), and the child's
/// save calls back into the parent: the parent's queue is held by this very thread, so
/// waiting for it would deadlock. Likewise a main-queue block (on Linux an async program
/// drains the main queue on a worker thread, so `Thread.isMainThread` says no) that
/// saves a private child of a main-queue context. Core Data's `performAndWait` is
/// reentrant in the same way.
enum HeldQueues {
    /// One thread's held contexts, innermost last, and how many of them were entered
    /// from a block of the main queue.
    private final class Stack {
        var contexts: [ObjectIdentifier] = []
        var mainDepth = 0
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()

    /// The current thread's stack, made on first use (released when the thread ends).
    private static var stack: Stack {
        if let pointer = pthread_getspecific(key) { return Unmanaged<Stack>.fromOpaque(pointer).takeUnretainedValue() }
        let made = Stack()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// The current thread's stack, if it has one (no allocation).
    private static var existingStack: Stack? {
        pthread_getspecific(key).map { Unmanaged<Stack>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` as a block of `context`'s queue on the current thread; `holdingMain`:
    /// the caller runs a main-queue block, which stays held while `body` runs.
    static func running<T>(_ context: ManagedObjectContext, holdingMain: Bool, _ body: () throws -> T) rethrows -> T {
        let stack = stack
        stack.contexts.append(ObjectIdentifier(context))
        if holdingMain { stack.mainDepth += 1 }
        defer {
            stack.contexts.removeLast()
            if holdingMain { stack.mainDepth -= 1 }
        }
        return try body()
    }

    /// Whether the current thread runs a block of `context`'s queue further up its stack.
    static func holds(_ context: ManagedObjectContext) -> Bool {
        existingStack?.contexts.contains(ObjectIdentifier(context)) == true
    }

    /// Whether the current thread runs a main-queue block further up its stack.
    static var holdsMain: Bool { (existingStack?.mainDepth ?? 0) > 0 }
}
