import EditingSession
import Foundation

extension NestedList {
    /// The longest title accepted, in characters (grapheme clusters): a list row is one
    /// line, and 200 characters is more than a screen's width.
    public static let maximumTitleLength = 200

    /// `title` without the spaces and newlines around it, or the reason it is refused.
    ///
    /// - Throws: `ListsError.emptyTitle`, `.titleTooLong` or `.titleHasControlCharacters`.
    public static func validatedTitle(_ title: String) throws(ListsError) -> String {
        do {
            return try LineInput.validated(title, limit: maximumTitleLength)
        } catch {
            switch error {
            case .empty: throw .emptyTitle
            case .tooLong(let length): throw .titleTooLong(length: length, limit: maximumTitleLength)
            case .controlCharacters: throw .titleHasControlCharacters
            }
        }
    }
}
