import DataAccess
import Foundation
import OpenCoreData

/// `dal-cli`: a command-line program that never drives the main queue. On the main
/// thread it writes and reads (inline); from a background thread it reads — the main
/// queue never runs, so the read must give up with `.mainQueueUnavailable` instead of
/// deadlocking — and writes (no main queue needed). Prints `inline-read N`,
/// `background-read <error code name>`, `background-write ok`, `withdrawn-ran <Bool>`.
struct DALCommandLine {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    /// Prints each error's code.
    final class ReportingDAL: DALService, @unchecked Sendable {
        // @unchecked Sendable: adds no state to DALService, whose state is locked.
        override func handleError(_ error: any Error) {
            emit("handled \((error as? CoreDataError)?.code.name ?? "\(error)")")
        }
    }

    func run() throws {
        let dal = ReportingDAL(sqliteStack: TortureModel.make(), storeURL: URL(fileURLWithPath: arguments.store), appStateSaving: .off)
        dal.mainQueueTimeout = 0.3
        dal.writeSync { context in
            EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("main", forKey: "title")
        }.read { context in
            emit("inline-read \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")))")
        }
        let ran = Flag()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            dal.read({ _ in ran.set() }, completion: { error in
                emit("background-read \((error as? CoreDataError)?.code.name ?? "no error")")
            })
            dal.writeSync({ context in
                EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("background", forKey: "title")
            }, completion: { error in emit("background-write \(error.map { "\($0)" } ?? "ok")") })
            finished.signal()
        }.start()
        finished.wait()
        dal.read { context in
            emit("inline-read \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")))")
        }
        emit("withdrawn-ran \(ran.isSet)")
    }

    final class Flag: @unchecked Sendable {
        // @unchecked Sendable: `value` is under `lock`.
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
