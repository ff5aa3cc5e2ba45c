import Foundation

/// The command line's own errors (the apps' input errors are the kits' own types).
enum DemoError: Error, CustomStringConvertible {
    /// A file named on the command line (a screenshot) cannot be read.
    case cannotReadFile(String, reason: String)
    /// A 1-based position past the end of its list (`last` is the largest valid one).
    case positionOutOfRange(Int, last: Int)

    var description: String {
        switch self {
        case let .cannotReadFile(path, reason):
            "Cannot read \(path): \(reason)."
        case let .positionOutOfRange(position, last):
            last < 1 ? "Position \(position) is out of range: the list is empty." : "Position \(position) is out of range: the list takes 1 through \(last)."
        }
    }
}
