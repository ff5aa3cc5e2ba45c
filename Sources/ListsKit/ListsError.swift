/// Why a nested-list action was refused. Nothing was changed.
///
/// An unknown or deleted reference is `EditingSessionError.notFound`, and a store error
/// is the `CoreDataError` as thrown; both pass through unchanged.
public enum ListsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The title is empty once spaces and newlines around it are trimmed.
    case emptyTitle
    /// The title has more than `limit` characters (`NestedList.maximumTitleLength`).
    case titleTooLong(length: Int, limit: Int)
    /// The title holds a control character (a newline or tab inside it, for instance).
    case titleHasControlCharacters
    /// A 0-based index past the end of the list it points into: valid are 0...`maximum`.
    case indexOutOfRange(index: Int, maximum: Int)
    /// A position path (`"2.1"`) that is not dot-separated positive numbers.
    case invalidPath(String)
    /// A position path names a position its list does not have (`count` items there).
    case noItem(path: String, position: Int, count: Int)
    /// The item would move into itself or its own subtree.
    case moveIntoOwnSubtree(title: String)
    /// The root cannot be deleted or moved.
    case rootIsFixed

    public var description: String {
        switch self {
        case .emptyTitle:
            "The title is empty: give the item some text."
        case let .titleTooLong(length, limit):
            "The title has \(length) characters; the limit is \(limit)."
        case .titleHasControlCharacters:
            "The title holds a control character such as a newline or tab: use one line of text."
        case let .indexOutOfRange(index, maximum):
            "Index \(index) is out of range: the list takes 0 through \(maximum)."
        case let .invalidPath(path):
            "“\(path)” is not an item path: give 1-based positions separated by dots, such as 2.1."
        case let .noItem(path, position, count):
            "There is no item at “\(path)”: its list has \(count) item(s), so position \(position) does not exist."
        case let .moveIntoOwnSubtree(title):
            "“\(title)” cannot move into itself or one of its own sub-items."
        case .rootIsFixed:
            "The root list cannot be deleted or moved."
        }
    }
}
