import DataAccess
import Foundation
import OpenCoreData

/// `dal-app-state`: a `DALService` on the store with app-state saving set by `--call`
/// (`signals`, `exit` or `off`) changes its main context without saving (an `Item` titled
/// "unsaved"), then prints `armed` once a signal would be caught. With `exit` it then calls
/// `exit(0)`; otherwise it drives the main queue (`dispatchMain()`) until a signal ends it.
struct DALAppState {
    let arguments: TortureArguments
    init(_ arguments: TortureArguments) { self.arguments = arguments }

    func run() throws {
        let setting: AppStateSaving
        switch arguments.call {
        case "signals": setting = .signalsAndExit
        case "exit": setting = .exitOnly
        case "off": setting = .off
        default: throw TortureArguments.Invalid(description: "dal-app-state: --call is signals, exit or off")
        }
        // Start as a program launched from a shell does: a parent that ignores these
        // signals (a test runner with its own DALService alive) would pass that on.
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] { signal(signalNumber, SIG_DFL) }
        let dal = DALService(sqliteStack: TortureModel.make(), storeURL: URL(fileURLWithPath: arguments.store), appStateSaving: setting)
        dal.read { context in
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("unsaved", forKey: "title")
        }
        if setting == .signalsAndExit, !dal.waitUntilSignalHandlersAreArmed(timeout: 5) {
            throw TortureArguments.Invalid(description: "dal-app-state: the signal handlers were not armed")
        }
        emit("armed")
        if setting == .exitOnly { exit(0) }
        let limit = arguments.seconds
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
            emit("timeout")
            exit(3)
        }
        withExtendedLifetime(dal) { dispatchMain() }
    }
}
