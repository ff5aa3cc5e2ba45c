import Foundation

/// The apps' rule for a one-line text field — an item's title, a project's name: trimmed
/// of surrounding white space, not empty, at most `limit` characters, no control
/// characters (a newline, a tab). Each app reports a `Problem` in its own error type.
public enum LineInput {
    /// Why a text was refused.
    public enum Problem: Error, Sendable, Hashable {
        case empty
        case tooLong(length: Int)
        case controlCharacters
    }

    /// `raw` as stored: trimmed, and checked.
    public static func validated(_ raw: String, limit: Int) throws(Problem) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .empty }
        guard text.count <= limit else { throw .tooLong(length: text.count) }
        guard !text.unicodeScalars.contains(where: isControl) else { throw .controlCharacters }
        return text
    }

    /// Whether `scalar` is a control character (Unicode general category Cc).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
