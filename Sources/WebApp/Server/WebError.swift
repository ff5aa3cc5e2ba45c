import BugsKit
import EditingSession
import HTTPTypes
import ListsKit
import OpenCoreData

/// What went wrong with a request, as the page says it: a status and one sentence for the
/// user. Never carries SQL, file paths or stack traces; the full error goes to the log.
struct WebError: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String

    init(status: HTTPResponse.Status, message: String) {
        self.status = status
        self.message = message
    }

    static func badRequest(_ message: String) -> WebError { WebError(status: .badRequest, message: message) }
    static func notFound(_ message: String = "There is no such page.") -> WebError { WebError(status: .notFound, message: message) }
    static func forbidden(_ message: String) -> WebError { WebError(status: .forbidden, message: message) }
    static let busy = WebError(
        status: .serviceUnavailable,
        message: "The store is busy: another program is writing to it. Try again in a moment."
    )
    static let tooLarge = WebError(status: .contentTooLarge, message: "That is more than the form accepts.")
    static let storeFailed = WebError(status: .internalServerError, message: "The store failed; nothing was changed. The server's log says why.")

    /// The page's words for an error of the apps, the kits or the store.
    init(_ error: any Error) {
        switch error {
        case let error as WebError:
            self = error
        case let error as ListsError:
            self = .badRequest(error.description)
        case let error as BugTrackerError:
            self = .badRequest(error.description)
        case let error as EditingSessionError:
            switch error {
            case .notFound: self = .notFound(error.description)
            case .conflict: self = WebError(status: .conflict, message: error.description)
            }
        case let error as CoreDataError where error.code == .storeTimeout:
            self = .busy
        case let error as CoreDataError where (1550..<1700).contains(error.code.rawValue):
            self = .badRequest("That change is not valid: \(error.message)")
        default:
            self = .storeFailed
        }
    }

    /// Whether the server, not the user, is at fault (the log gets the full error).
    var isServerFault: Bool { status.code >= 500 && status != .serviceUnavailable }
}
