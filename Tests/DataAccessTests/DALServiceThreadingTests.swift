import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Where each call runs, pinned by queue identity (`Where.isMainQueue`), not
/// `Thread.isMainThread`: the Swift Testing runner on Linux runs main-queue blocks on a
/// worker thread. Skopelos' `SkopelosConcurrencyTests`, plus what Skopelos could not
/// promise.
@Suite("DALService threading")
struct DALServiceThreadingTests {
    /// Runs `body` on the main queue (or a background queue) and waits for it.
    private static func run(onMain: Bool, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            (onMain ? DispatchQueue.main : DispatchQueue.global()).async {
                body()
                done.resume()
            }
        }
    }

    /// A chain of five steps has run them in order, and completely, when it returns.
    @Test(arguments: [true, false])
    func chainingRunsInOrderAndFinishesBeforeReturning(onMain: Bool) async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        let trace = Trace<Int>()
        await Self.run(onMain: onMain) {
            let counter = Trace<Int>()
            dal.writeSync { context in
                counter.append(1)
                User.create(in: context).firstname = "one"
            }.read { context in
                counter.append(try User.count(in: context) == 1 ? 2 : -2)
            }.writeSync { context in
                counter.append(3)
                User.create(in: context).firstname = "two"
            }.read { context in
                counter.append(try User.count(in: context) == 2 ? 4 : -4)
            }.writeSync { _ in
                counter.append(5)
            }
            trace.append(counter.all.count)
            for step in counter.all { trace.append(step) }
        }
        #expect(trace.all == [5, 1, 2, 3, 4, 5])
        #expect(try fixture.usersOnDisk().count == 2)
        #expect(dal.errors.isEmpty)
    }

    /// Five chained writes, each counting what the ones before saved: the counter reads 5
    /// on disk when the expression returns.
    @Test(arguments: StoreKind.allCases)
    func fiveWriteChainCountsToFive(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        func increment(_ context: ManagedObjectContext) throws {
            let before = try User.count(in: context)
            User.create(in: context).firstname = "\(before)"
        }
        var counter = -1
        fixture.dal.writeSync(increment).writeSync(increment).writeSync(increment).writeSync(increment).writeSync(increment)
            .read { context in counter = try User.count(in: context) }
        #expect(counter == 5)
        if kind == .sqlite { #expect(try fixture.usersOnDisk().compactMap { $0 }.sorted() == ["0", "1", "2", "3", "4"]) }
        #expect(fixture.dal.errors.isEmpty)
    }

    /// `read` runs on the main queue, from the main queue and from a background queue.
    /// `writeSync` runs on the caller's thread, off the main queue's identity, and its
    /// completion on the caller's thread after the save.
    @Test(arguments: [true, false])
    func readAndWriteSyncThreading(onMain: Bool) async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        let facts = Trace<String>()
        let url = fixture.storeURL
        await Self.run(onMain: onMain) {
            let caller = pthread_self()
            dal.read { _ in
                facts.append("read on main queue: \(Where.isMainQueue)")
            }.writeSync({ context in
                facts.append("write on caller's thread: \(pthread_equal(pthread_self(), caller) != 0)")
                facts.append("write on main queue: \(Where.isMainQueue)")
                User.create(in: context).firstname = "saved"
            }, completion: { error in
                facts.append("completion on caller's thread: \(pthread_equal(pthread_self(), caller) != 0), error: \(error.map { "\($0)" } ?? "none")")
                facts.append("on disk at completion: \((try? DALFixture.usersOnDisk(at: url)) ?? [])")
            })
        }
        #expect(facts.all == [
            "read on main queue: true",
            "write on caller's thread: true",
            "write on main queue: false",
            "completion on caller's thread: true, error: none",
            "on disk at completion: [Optional(\"saved\")]",
        ])
    }

    /// `writeAsync` runs off the main queue and calls its completion exactly once, on the
    /// main queue, after the save; from the main queue and from a background queue.
    @Test(arguments: [true, false])
    func writeAsyncThreading(onMain: Bool) async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        let facts = Trace<String>()
        let completions = Trace<Bool>()
        let url = fixture.storeURL
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            (onMain ? DispatchQueue.main : DispatchQueue.global()).async {
                dal.writeAsync({ context in
                    facts.append("block on main queue: \(Where.isMainQueue)")
                    User.create(in: context).firstname = "async"
                }, completion: { error in
                    completions.append(Where.isMainQueue)
                    facts.append("completion error: \(error.map { "\($0)" } ?? "none")")
                    facts.append("on disk: \((try? DALFixture.usersOnDisk(at: url)) ?? [])")
                    done.resume()
                })
            }
        }
        // Time for a second call, which must not come.
        try await Task.sleep(for: .milliseconds(50))
        #expect(completions.all == [true])
        #expect(facts.all == ["block on main queue: false", "completion error: none", "on disk: [Optional(\"async\")]"])
    }

    /// The async/await forms return values; `read` sees what `write` saved.
    @Test(arguments: StoreKind.allCases)
    func asyncWriteAndRead(_ kind: StoreKind) async throws {
        let fixture = DALFixture(kind)
        let dal = fixture.dal
        let id = try await dal.write { context in
            let user = User.create(in: context)
            user.firstname = "Grace"
            try context.obtainPermanentIDs(for: [user])
            return user.objectID
        }
        let (name, onMain) = try await dal.read { context in
            (try User.first(in: context)?.firstname, Where.isMainQueue)
        }
        #expect(name == "Grace")
        #expect(onMain)
        let count = try await dal.read { context in try User.count(in: context, predicate: CDPredicate(format: "SELF == %@", id)) }
        #expect(count == 1)
        await #expect(throws: CoreDataError.self) {
            try await dal.write { context in _ = Pet.create(in: context) }  // name is mandatory
        }
        #expect(dal.errorCodes == [.validationMissingMandatoryProperty])
    }

    /// Blocks the main queue until the returned semaphore is signalled; returns once a
    /// main-queue block is running (so the queue is really held).
    static func blockMainQueue() -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            blocked.signal()
            release.wait()
        }
        blocked.wait()
        return release
    }

    /// With the main queue blocked, a write from a background thread still finishes and
    /// is on disk (Skopelos' writes go scratch → main and wait for the main queue).
    @Test func backgroundWriteWhileTheMainQueueIsBlocked() async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        let release = Self.blockMainQueue()
        let onDisk = Trace<Int>()
        let url = fixture.storeURL
        DispatchQueue.global().sync {
            dal.writeSync { context in User.create(in: context).firstname = "while blocked" }
            onDisk.append((try? DALFixture.usersOnDisk(at: url).count) ?? -1)
        }
        release.signal()
        #expect(onDisk.all == [1])
        // And the read that follows, once the main queue runs, sees it.
        #expect(try await dal.read { try User.count(in: $0) } == 1)
    }

    /// A read from a background thread while the main queue cannot run gives up after
    /// `mainQueueTimeout` with `.mainQueueUnavailable`, and its block never runs later.
    @Test func readFromBackgroundWhileTheMainQueueIsBlocked() async throws {
        let fixture = DALFixture(.inMemory)
        let dal = fixture.dal
        dal.mainQueueTimeout = 0.2
        let release = Self.blockMainQueue()
        let ran = Trace<Bool>()
        let outcomes = Trace<String>()
        DispatchQueue.global().sync {
            _ = dal.read({ _ in ran.append(true) }, completion: { error in
                outcomes.append((error as? CoreDataError)?.code.name ?? "no error")
            })
        }
        release.signal()
        // Let the main queue drain: the withdrawn block must not run.
        _ = try await dal.read { _ in true }
        #expect(ran.all.isEmpty)
        #expect(outcomes.all == ["mainQueueUnavailable"])
        #expect(dal.errorCodes == [.mainQueueUnavailable])
    }

    /// A write inside a read (on the main queue) neither deadlocks nor waits for the
    /// main queue, and the rest of the read already sees it.
    @Test(arguments: [true, false])
    func writeInsideRead(onMain: Bool) async throws {
        let fixture = DALFixture(.sqlite)
        let dal = fixture.dal
        let counts = Trace<Int>()
        await Self.run(onMain: onMain) {
            dal.read { main in
                counts.append(try User.count(in: main))
                dal.writeSync { context in User.create(in: context).firstname = "inner" }
                counts.append(try User.count(in: main))
                counts.append(try User.first(in: main)?.firstname == "inner" ? 1 : 0)
            }
        }
        #expect(counts.all == [0, 1, 1])
        #expect(try fixture.usersOnDisk() == ["inner"])
    }

    /// Concurrent writes each save on their own scratch context; all arrive.
    @Test(arguments: StoreKind.allCases)
    func concurrentWrites(_ kind: StoreKind) async throws {
        let fixture = DALFixture(kind)
        let dal = fixture.dal
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            dal.writeSync { context in User.create(in: context).firstname = "user \(index)" }
        }
        #expect(try await dal.read { try User.count(in: $0) } == 8)
        #expect(dal.errors.isEmpty)
    }
}
