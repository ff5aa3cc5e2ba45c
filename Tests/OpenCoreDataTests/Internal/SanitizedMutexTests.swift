import Dispatch
import Testing
@testable import OpenCoreData

/// `SanitizedMutex` guards its value like `Mutex` does, and, under the thread sanitizer
/// (`swift test --sanitize=thread --filter SanitizedMutexTests`), its contended hand-overs
/// are seen: a plain `Mutex` on Linux makes this test report a data race on the count,
/// since the kernel, not instrumented code, passes the lock to a waiting thread.
@Suite struct SanitizedMutexTests {
    @Test func contendedIncrementsAreAllCountedAndSeenAsOrdered() {
        let threads = 4
        let increments = 20_000
        let count = SanitizedMutex(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == threads * increments)
    }

    @Test func aThrowingBodyReleasesTheLock() {
        struct Failure: Error {}
        let value = SanitizedMutex(1)
        #expect(throws: Failure.self) { try value.withLock { (_: inout Int) throws(Failure) in throw Failure() } }
        #expect(value.withLock { $0 } == 1)
    }
}
