import Foundation

/// Why the tracker refused an input: a clear, typed reason, with a readable
/// `description` for a page or a command line. An action that throws one changed nothing.
///
/// An unknown or deleted reference throws `EditingSessionError.notFound`, and errors of
/// the framework (`CoreDataError`) pass through unchanged.
public enum BugTrackerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A text field of the tracker, named in errors.
    public enum Field: String, Sendable, Codable {
        case name, url, title, details
    }

    /// A required field (a project's name, a bug's title) is empty or only whitespace.
    case emptyField(Field)
    /// A field is longer than its limit, in characters (see `BugTracker.Limits`).
    case fieldTooLong(Field, limit: Int)
    /// A field contains control characters (a line break in a name, a NUL anywhere).
    case controlCharacters(Field)
    /// The URL is not one the tracker accepts (see `BugTracker.validatedURL(_:)`).
    case invalidURL(String, reason: String)
    /// No project has this reference or exact name (`BugTracker.lookupProject(_:)`).
    case noProjectNamed(String)
    /// Several projects have this exact name: address one by its reference instead.
    case ambiguousProjectName(String, references: [String])
    /// The screenshot is not a PNG or a JPEG (judged by its first bytes, never by a name
    /// or a declared type), or is empty.
    case screenshotNotAnImage
    /// The screenshot is larger than `limit` bytes.
    case screenshotTooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .emptyField(let field):
            "The \(field.label) is empty."
        case .fieldTooLong(let field, let limit):
            "The \(field.label) is too long (at most \(limit) characters)."
        case .controlCharacters(let field):
            field == .details
                ? "The \(field.label) contain control characters (only line breaks and tabs are allowed)."
                : "The \(field.label) contains control characters such as line breaks."
        case .invalidURL(let url, let reason):
            "“\(url)” is not a URL the tracker accepts: \(reason)."
        case .noProjectNamed(let name):
            "No project is named “\(name)”."
        case .ambiguousProjectName(let name, let references):
            "\(references.count) projects are named “\(name)”; use a reference instead: \(references.joined(separator: ", "))."
        case .screenshotNotAnImage:
            "The screenshot is not a PNG or JPEG image."
        case .screenshotTooLarge(let bytes, let limit):
            "The screenshot is too large (\(bytes) bytes; at most \(limit))."
        }
    }
}

extension BugTrackerError.Field {
    /// The field's name in a sentence.
    var label: String {
        switch self {
        case .name: "project name"
        case .url: "URL"
        case .title: "bug title"
        case .details: "bug details"
        }
    }
}
