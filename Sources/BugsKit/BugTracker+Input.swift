import EditingSession
import Foundation

extension BugTracker {
    /// What the tracker accepts, in characters (screenshots: `Screenshot.maximumSize`).
    public enum Limits {
        /// A project's name: 1 to 200 characters, one line.
        public static let nameLength = 200
        /// A project's URL: at most 2,048 characters (what browsers and servers commonly
        /// accept).
        public static let urlLength = 2048
        /// A bug's title: 1 to 200 characters, one line.
        public static let titleLength = 200
        /// A bug's details: at most 10,000 characters, line breaks and tabs allowed.
        public static let detailsLength = 10_000
    }

    /// The URL schemes a project's URL may have: web pages, which have a host, and
    /// `mailto:` addresses, which have none. Anything else — `javascript:`, `data:`,
    /// `file:` — is refused, since a page shows the URL as a link.
    public static let acceptedURLSchemes: Set<String> = ["http", "https", "mailto"]

    /// A project name or bug title as stored: trimmed of surrounding whitespace, not
    /// empty, one line, at most `limit` characters.
    static func validatedLine(_ raw: String, _ field: BugTrackerError.Field, limit: Int) throws(BugTrackerError) -> String {
        do {
            return try LineInput.validated(raw, limit: limit)
        } catch {
            switch error {
            case .empty: throw .emptyField(field)
            case .tooLong: throw .fieldTooLong(field, limit: limit)
            case .controlCharacters: throw .controlCharacters(field)
            }
        }
    }

    /// A bug's details as stored: trimmed; nil when empty; line breaks and tabs allowed.
    static func validatedDetails(_ raw: String?) throws(BugTrackerError) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= Limits.detailsLength else { throw .fieldTooLong(.details, limit: Limits.detailsLength) }
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        guard !text.unicodeScalars.contains(where: { LineInput.isControl($0) && !allowed.contains($0) }) else {
            throw .controlCharacters(.details)
        }
        return text
    }

    /// A project's URL as stored, or nil for none (nil, empty or whitespace).
    ///
    /// Accepted: an absolute URL (RFC 3986, no spaces) whose scheme is one of
    /// `acceptedURLSchemes`, at most `Limits.urlLength` characters; `http` and `https`
    /// URLs need a host, `mailto:` an address. It is stored as entered (trimmed); the
    /// project's `host` is its host, lowercased. `github.com/apple` (no scheme) is refused
    /// with a hint rather than guessed at.
    ///
    /// - Throws: `BugTrackerError.invalidURL` with the reason, or `.fieldTooLong(.url, …)`.
    public static func validatedURL(_ raw: String?) throws(BugTrackerError) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= Limits.urlLength else { throw .fieldTooLong(.url, limit: Limits.urlLength) }
        guard !text.unicodeScalars.contains(where: { LineInput.isControl($0) || $0.properties.isWhitespace }) else {
            throw .invalidURL(text, reason: "it contains spaces or control characters")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL(text, reason: "it needs a scheme, as in https://\(text)")
        }
        guard acceptedURLSchemes.contains(scheme) else {
            throw .invalidURL(text, reason: "the scheme must be http, https or mailto")
        }
        if scheme == "mailto" {
            guard !components.path.isEmpty else { throw .invalidURL(text, reason: "it has no address") }
        } else {
            guard Project.host(of: text) != nil else { throw .invalidURL(text, reason: "it has no host") }
        }
        return text
    }
}
