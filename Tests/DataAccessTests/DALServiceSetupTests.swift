import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Skopelos' `SkopelosSetupTests`: synchronous and asynchronous store loading.
@Suite("DALService setup")
struct DALServiceSetupTests {
    /// Synchronous: the completion has run, on the caller's thread, when `init` returns.
    @Test(arguments: StoreKind.allCases)
    func synchronousSetup(_ kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let order = Trace<String>()
        let caller = pthread_self()
        let completion: @Sendable ((any Error)?) -> Void = { error in
            order.append("completion \(error == nil) same thread \(pthread_equal(pthread_self(), caller) != 0)")
        }
        let dal = kind == .sqlite
            ? DALService(sqliteStack: DALTestModel.make(), storeURL: folder.file(), appStateSaving: .off, completion: completion)
            : DALService(inMemoryStack: DALTestModel.make(), completion: completion)
        order.append("init returned")
        #expect(order.all == ["completion true same thread true", "init returned"])
        var count = -1
        dal.read { context in count = try User.count(in: context) }
        #expect(count == 0)
    }

    /// Asynchronous: `init` returns at once — the main queue is not held while the store
    /// loads (Skopelos loads on the main thread by default) — and the completion comes
    /// later on the main queue. A write issued before loading finished waits for it.
    @Test(arguments: StoreKind.allCases)
    func asynchronousSetup(_ kind: StoreKind) async throws {
        let folder = TemporaryFolder()
        let url = folder.file()
        let order = Trace<String>()
        let dal: DALService = await withCheckedContinuation { (done: CheckedContinuation<DALService, Never>) in
            DispatchQueue.main.async {
                let completion: @Sendable ((any Error)?) -> Void = { error in
                    order.append("completion \(error == nil) on main queue \(Where.isMainQueue)")
                }
                let dal = kind == .sqlite
                    ? DALService(sqliteStack: DALTestModel.make(), storeURL: url, appStateSaving: .off,
                                 shouldAddStoreAsynchronously: true, completion: completion)
                    : DALService(inMemoryStack: DALTestModel.make(), shouldAddStoreAsynchronously: true, completion: completion)
                order.append("init returned")
                // Still on the main queue, before the completion: a write waits for the store.
                dal.writeSync { context in User.create(in: context).firstname = "early" }
                done.resume(returning: dal)
            }
        }
        #expect(try await dal.read { try User.count(in: $0) } == 1)
        #expect(order.all == ["init returned", "completion true on main queue true"])
    }

    /// A store that cannot be opened: the error reaches `handleError(_:)` and the
    /// completion; reads and writes then fail with it instead of trapping (Skopelos nukes
    /// the store — deleting the user's data — when adding it fails).
    @Test(arguments: [false, true])
    func storeThatCannotOpen(asynchronously: Bool) async throws {
        let folder = TemporaryFolder()
        let url = try folder.write("this is not a SQLite database, and must survive", to: "store.sqlite")
        let reported = Trace<String>()
        let dal = RecordingDAL(sqliteStack: DALTestModel.make(), storeURL: url, appStateSaving: .off,
                               shouldAddStoreAsynchronously: asynchronously) { error in
            reported.append((error as? CoreDataError)?.code.name ?? "nil")
        }
        await #expect(throws: CoreDataError.self) { try await dal.read { try User.count(in: $0) } }
        dal.writeSync { context in User.create(in: context) }
        await withCheckedContinuation { (flushed: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { flushed.resume() } }
        #expect(reported.all == ["notAStore"])
        #expect(dal.errorCodes == [.notAStore, .notAStore, .notAStore])
        #expect(try String(contentsOf: url, encoding: .utf8) == "this is not a SQLite database, and must survive")
    }
}
