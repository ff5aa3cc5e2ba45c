import Synchronization

/// A `Mutex` whose hand-overs the thread sanitizer sees: the library's lock for state
/// shared between threads (registries, caches, a coordinator's save broadcast).
///
/// On Linux, `Mutex` is a futex word. Its uncontended paths are atomics inlined into the
/// caller, which the sanitizer instruments; its contended paths (`_lockSlow`,
/// `_unlockSlow`) run in the prebuilt, uninstrumented `libswiftSynchronization`, where the
/// kernel hands the lock from one thread to the next. So when a thread waits for a lock,
/// the sanitizer never learns that the previous holder's writes happen before the
/// waiter's reads, and reports a data race on the guarded state that is not there (seen
/// in `EntityRegistry` while `ContextStressTests` sets up its stacks in parallel).
///
/// Each critical section here also loads `handoff` with acquiring ordering on entry and
/// stores it with releasing ordering on exit. The mutex orders those accesses exactly as
/// it orders the sections, so the sanitizer sees the same happens-before edges the lock
/// gives: no more, so it still reports real races on the guarded state. Outside the
/// sanitizer the cost is one plain load and one plain store on x86 (`ldar`/`stlr` on
/// ARM), next to the lock word.
struct SanitizedMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    /// Written by every holder as it leaves and read by every holder as it enters; its
    /// value means nothing.
    private let handoff = Atomic<UInt8>(0)

    init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value, as `Mutex.withLock` does.
    @inline(__always)
    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}
