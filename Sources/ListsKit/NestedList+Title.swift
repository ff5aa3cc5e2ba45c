import Foundation

extension NestedList {
    /// The longest title accepted, in characters (grapheme clusters): a list row is one
    /// line, and 200 characters is more than a screen's width.
    public static let maximumTitleLength = 200

    /// `title` without the spaces and newlines around it, or the reason it is refused.
    ///
    /// - Throws: `ListsError.emptyTitle`, `.titleTooLong` or `.titleHasControlCharacters`.
    public static func validatedTitle(_ title: String) throws(ListsError) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyTitle }
        guard trimmed.count <= maximumTitleLength else { throw .titleTooLong(length: trimmed.count, limit: maximumTitleLength) }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .titleHasControlCharacters
        }
        return trimmed
    }
}
