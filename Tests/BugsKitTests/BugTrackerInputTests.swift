import BugsKit
import Foundation
import Testing

/// What the tracker accepts as a URL, and the readable descriptions of its errors.
@Suite struct BugTrackerInputTests {
    @Test(arguments: [
        ("https://github.com/apple/swift", "https://github.com/apple/swift"),
        ("  http://example.org:8080/path?q=1#top  ", "http://example.org:8080/path?q=1#top"),
        ("HTTPS://Example.COM", "HTTPS://Example.COM"),
        ("mailto:bugs@example.com", "mailto:bugs@example.com"),
        ("", nil),
        ("   ", nil),
    ] as [(String, String?)])
    func acceptedURLs(raw: String, stored: String?) throws {
        #expect(try BugTracker.validatedURL(raw) == stored)
    }

    @Test(arguments: [
        "github.com/apple/swift",            // no scheme
        "javascript:alert(1)",               // a script
        "data:text/html,<b>x</b>",
        "file:///etc/passwd",
        "ftp://example.org",
        "https://exa mple.org",              // a space
        "https://example.org/\u{0}",         // a control character
        "https:///path-only",                // no host
        "http://",
        "mailto:",
    ])
    func refusedURLs(raw: String) {
        #expect {
            try BugTracker.validatedURL(raw)
        } throws: { error in
            guard case .invalidURL(let url, let reason)? = error as? BugTrackerError else { return false }
            return url == raw.trimmingCharacters(in: .whitespaces) && !reason.isEmpty
        }
    }

    @Test func aTooLongURLIsRefused() {
        let url = "https://example.org/" + String(repeating: "a", count: BugTracker.Limits.urlLength)
        #expect(throws: BugTrackerError.fieldTooLong(.url, limit: BugTracker.Limits.urlLength)) { try BugTracker.validatedURL(url) }
    }

    @Test func descriptionsAreReadable() {
        #expect(BugTrackerError.emptyField(.name).description == "The project name is empty.")
        #expect(BugTrackerError.emptyField(.title).description == "The bug title is empty.")
        #expect(BugTrackerError.fieldTooLong(.title, limit: 200).description == "The bug title is too long (at most 200 characters).")
        #expect(BugTrackerError.invalidURL("ftp://x", reason: "the scheme must be http, https or mailto").description
            == "“ftp://x” is not a URL the tracker accepts: the scheme must be http, https or mailto.")
        #expect(BugTrackerError.screenshotNotAnImage.description == "The screenshot is not a PNG or JPEG image.")
        #expect(BugTrackerError.ambiguousProjectName("Swift", references: ["p1", "p2"]).description
            == "2 projects are named “Swift”; use a reference instead: p1, p2.")
    }
}
