import Foundation

/// The command line: `ocd-torture <mode> --store PATH [--batch-size N] [--limit N]
/// [--think-us N] [--seconds N] [--call NAME]`, parsed by hand.
struct TortureArguments {
    enum Mode: String, CaseIterable {
        case saveLoop = "save-loop"
        case create
        case cascade
        case batchDelete = "batch-delete"
        case counter
        case editEvents = "edit-events"
        case concurrencyMisuse = "concurrency-misuse"
        case concurrencyCorrect = "concurrency-correct"
        case dalAppState = "dal-app-state"
        case dalCommandLine = "dal-cli"
        case remoteWriter = "remote-writer"
        case documentEditor = "document-editor"
    }

    var mode: Mode
    var store: String
    /// save-loop: records per batch.
    var batchSize = 50
    /// save-loop: the last batch to write; counter: increments to commit.
    var limit = 100_000
    /// counter: microseconds between reading the counter and saving it.
    var thinkMicroseconds = 0
    /// Every mode stops after this long.
    var seconds: TimeInterval = 60
    /// concurrency-misuse: the call made off the context's queue.
    var call = "fetch"

    static let usage = "usage: ocd-torture <\(Mode.allCases.map(\.rawValue).joined(separator: "|"))> --store PATH [--batch-size N] [--limit N] [--think-us N] [--seconds N] [--call NAME]"

    struct Invalid: Error, CustomStringConvertible { let description: String }

    init(_ arguments: [String]) throws {
        guard let first = arguments.first, let mode = Mode(rawValue: first) else { throw Invalid(description: Self.usage) }
        self.mode = mode
        var store: String?
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Invalid(description: "\(option) needs a value\n\(Self.usage)") }
            func number() throws -> Int {
                guard let number = Int(value), number >= 0 else { throw Invalid(description: "\(option): '\(value)' is not a count") }
                return number
            }
            switch option {
            case "--store": store = value
            case "--batch-size": batchSize = max(1, try number())
            case "--limit": limit = try number()
            case "--think-us": thinkMicroseconds = try number()
            case "--seconds": seconds = TimeInterval(try number())
            case "--call": call = value
            default: throw Invalid(description: "unknown option \(option)\n\(Self.usage)")
            }
        }
        guard let store else { throw Invalid(description: "--store is required\n\(Self.usage)") }
        self.store = store
    }
}
