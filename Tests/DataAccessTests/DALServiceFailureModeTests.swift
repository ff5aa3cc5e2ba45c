import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// The failure modes found in Skopelos (`DALService.swift`, `CoreDataStack.swift`), each
/// shown not to happen here. (Failure modes needing another process or a blocked main
/// queue are in `AppStateSavingTests`, `DALCommandLineTests` and
/// `DALServiceThreadingTests`.)
@Suite("DALService: Skopelos' failure modes")
struct DALServiceFailureModeTests {
    /// Skopelos' `writeSync` saves the scratch context, then the root asynchronously
    /// (`rootContext.perform { save }`), and returns: a process that dies then loses the
    /// write (its PR #12 discussion). Here the row is on disk when `writeSync` returns —
    /// read back by another coordinator at once.
    @Test func writeSyncIsOnDiskWhenItReturns() throws {
        let fixture = DALFixture(.sqlite)
        for index in 1...3 {
            fixture.dal.writeSync { context in User.create(in: context).firstname = "user \(index)" }
            #expect(try fixture.usersOnDisk().count == index)
        }
    }

    /// Skopelos calls the completion with the error and then again with nil when the
    /// root's save fails, and never when the scratch save fails (only `handleError`).
    /// Here each failure calls the completion once, with the error, after
    /// `handleError(_:)`; success once with nil.
    @Test(arguments: StoreKind.allCases)
    func completionsAreCalledExactlyOnce(_ kind: StoreKind) async throws {
        let fixture = DALFixture(kind)
        let dal = fixture.dal
        let calls = Trace<String>()
        struct Thrown: Error {}
        dal.writeSync({ context in Pet.create(in: context) }, completion: { error in
            calls.append("invalid: \((error as? CoreDataError)?.code.name ?? "nil"), handled \(dal.errors.count)")
        })
        dal.writeSync({ _ in throw Thrown() }, completion: { error in
            calls.append("thrown: \(error is Thrown), handled \(dal.errors.count)")
        })
        dal.writeSync({ context in Pet.create(in: context).name = "Rex" }, completion: { error in
            calls.append("valid: \(error == nil)")
        })
        for (label, body) in [("async invalid", { @Sendable (context: ManagedObjectContext) in _ = Pet.create(in: context) }),
                              ("async valid", { @Sendable (context: ManagedObjectContext) in Pet.create(in: context).name = "Fido" })] {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                dal.writeAsync(body) { error in
                    calls.append("\(label): \((error as? CoreDataError)?.code.name ?? "nil")")
                    done.resume()
                }
            }
        }
        _ = try await dal.read { _ in true }  // later main-queue blocks have run
        #expect(calls.all == [
            "invalid: validationMissingMandatoryProperty, handled 1",
            "thrown: true, handled 2",
            "valid: true",
            "async invalid: validationMissingMandatoryProperty",
            "async valid: nil",
        ])
        #expect(dal.errors.count == 3)
    }

    /// Skopelos' shared scratch context (concurrent writes off) keeps a failed write's
    /// changes, so every later write fails on them. Here the next write starts clean,
    /// and nothing of the failed one reaches the disk or the main context.
    @Test(arguments: StoreKind.allCases)
    func aFailedWriteDoesNotPoisonTheSharedScratchContext(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind, concurrentWrites: false)
        let dal = fixture.dal
        var seen: [String] = []
        dal.writeSync { context in
            User.create(in: context).firstname = "before"
        }.writeSync { context in
            User.create(in: context).firstname = "in the failed write"
            Pet.create(in: context)  // invalid: no name
        }.writeSync { context in
            seen.append("scratch has changes at start: \(context.hasChanges)")
            User.create(in: context).firstname = "after"
        }.read { context in
            seen.append(try User.all(in: context, sortedBy: "firstname").compactMap(\.firstname).joined(separator: ","))
            seen.append("pets \(try Pet.count(in: context))")
        }
        #expect(seen == ["scratch has changes at start: false", "after,before", "pets 0"])
        #expect(dal.errorCodes == [.validationMissingMandatoryProperty])
        if kind == .sqlite { #expect(try fixture.usersOnDisk().compactMap { $0 }.sorted() == ["after", "before"]) }
    }

    /// A write whose block throws saves nothing of what it did before throwing.
    @Test(arguments: StoreKind.allCases)
    func aThrowingWriteSavesNothing(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind, concurrentWrites: false)
        struct Stop: Error {}
        var count = -1
        fixture.dal.writeSync { context in
            User.create(in: context).firstname = "half done"
            throw Stop()
        }.writeSync { context in
            User.create(in: context).firstname = "next"
        }.read { context in
            count = try User.count(in: context)
        }
        #expect(count == 1)
        #expect(fixture.dal.errors.count == 1 && fixture.dal.errors.first is Stop)
    }

    /// Skopelos' lazily made shared scratch context keeps pointing at the old main
    /// context after `nuke()`. Here every context is rebuilt: writes after a nuke land in
    /// the new store, and the main context sees them.
    @Test(arguments: StoreKind.allCases)
    func nukeRebuildsEveryContext(_ kind: StoreKind) throws {
        for concurrentWrites in [true, false] {
            let fixture = DALFixture(kind, concurrentWrites: concurrentWrites)
            let dal = fixture.dal
            var counts: [Int] = []
            dal.writeSync { context in
                User.create(in: context)
                counts.append(try User.all(in: context).count)
            }.read { context in
                counts.append(try User.count(in: context))
            }
            let oldMain = dal.mainContext
            try dal.nuke()
            #expect(dal.mainContext !== oldMain)
            if kind == .sqlite { #expect(try fixture.usersOnDisk().isEmpty) }
            dal.read { context in
                counts.append(try User.count(in: context))
            }.writeSync { context in
                User.create(in: context).firstname = "after nuke"
            }.read { context in
                counts.append(try User.count(in: context))
            }
            #expect(counts == [1, 1, 0, 1], "concurrent writes \(concurrentWrites)")
            if kind == .sqlite { #expect(try fixture.usersOnDisk() == ["after nuke"]) }
            #expect(dal.errors.isEmpty)
        }
    }

    /// A write whose block is still running when `nuke()` replaces the stack is not
    /// saved into the new store behind the caller's back: it fails with `.stackNuked`.
    ///
    /// ```
    /// writer:  block starts ── waits ─────────────── resumes, commits → .stackNuked
    /// test:                   nuke() (new stack) ─┘ releases
    /// ```
    @Test(arguments: StoreKind.allCases)
    func aWriteOverlappingNukeFailsClearly(_ kind: StoreKind) async throws {
        let fixture = DALFixture(kind)
        let dal = fixture.dal
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let outcome = Trace<String>()
        let writer = Thread {
            dal.writeSync({ context in
                User.create(in: context).firstname = "from the old stack"
                started.signal()
                release.wait()
            }, completion: { error in outcome.append((error as? CoreDataError)?.code.name ?? "saved") })
            outcome.append("returned")
        }
        writer.start()
        started.wait()
        try dal.nuke()
        release.signal()
        while outcome.all.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(outcome.all == ["stackNuked", "returned"])
        #expect(try await dal.read { try User.count(in: $0) } == 0)
        if kind == .sqlite { #expect(try fixture.usersOnDisk().isEmpty) }
    }

    /// `nuke()` deletes the store file and its `-wal` and `-shm`.
    @Test func nukeDeletesTheStoreFiles() throws {
        let fixture = DALFixture(.sqlite)
        fixture.dal.writeSync { context in User.create(in: context) }
        let marker = fixture.storeURL.path + "-journal"
        #expect(FileManager.default.createFile(atPath: marker, contents: Data("stale".utf8)))
        let walBefore = FileManager.default.fileExists(atPath: fixture.storeURL.path + "-wal")
        #expect(walBefore)
        try fixture.dal.nuke()
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try fixture.usersOnDisk().isEmpty)
    }
}
