import ArgumentParser
import BugsKit
import DemoStore
import EditingSession
import Foundation
import ListsKit
import OpenCoreData

/// How a command reports a failure: one line on standard error and a documented exit code
/// (`opencoredata-demo --help` lists them). Argument errors are ArgumentParser's own (64).
enum DemoFailure {
    /// The app refused the input (empty title, unknown path, reference or project): EX_DATAERR.
    static let inputRefused = ExitCode(65)
    /// A file named on the command line cannot be read: EX_NOINPUT.
    static let fileUnreadable = ExitCode(66)
    /// The store cannot be created or opened: EX_CANTCREAT.
    static let storeUnavailable = ExitCode(73)
    /// Any other store error: EX_IOERR.
    static let storeFailed = ExitCode(74)
    /// Another process held the store for the whole timeout: EX_TEMPFAIL.
    static let storeBusy = ExitCode(75)

    /// The web server could not listen or stopped with an error: EX_SOFTWARE.
    static let serverFailed = ExitCode(70)

    /// Runs `body`; turns its error into a message on standard error and an `ExitCode`.
    @discardableResult
    static func reporting<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            let (message, code) = describe(error)
            FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
            throw code
        }
    }

    /// The message and exit code for `error`.
    static func describe(_ error: any Error) -> (String, ExitCode) {
        switch error {
        case let error as DemoError:
            switch error {
            case .cannotReadFile: return (error.description, fileUnreadable)
            case .positionOutOfRange: return (error.description, inputRefused)
            }
        case let error as DemoStoreError:
            return (error.description, storeUnavailable)
        case let error as ListsError:
            return (error.description, inputRefused)
        case let error as BugTrackerError:
            return (error.description, inputRefused)
        case let error as EditingSessionError:
            return (error.description, inputRefused)
        case let error as CoreDataError:
            switch error.code {
            case .storeOpenFailed, .notAStore, .storeCorrupt, .incompatibleModel, .storeReadOnly, .invalidModel:
                return ("The store cannot be opened: \(error.message)", storeUnavailable)
            case .storeTimeout:
                return ("The store is busy: \(error.message) Try again.", storeBusy)
            default:
                return ("The store failed: \(error.message)", storeFailed)
            }
        default:
            return (String(describing: error), storeFailed)
        }
    }
}
