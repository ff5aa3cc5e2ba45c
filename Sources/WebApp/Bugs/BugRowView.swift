import BugsKit
import Foundation

/// A bug as a template shows it: a row of a project's page.
struct BugRowView: Sendable, Equatable {
    /// The element id, `bug-7`.
    let id: String
    /// The reference, `7`.
    let reference: String
    /// The reference of the bug's project, `12`.
    let projectReference: String
    let title: String
    /// The details, or nil (shown with their line breaks).
    let details: String?
    /// When it was filed, for `<time datetime>`: `2026-11-25T03:34:50Z`.
    let createdISO: String
    /// When it was filed, for people: `2026-11-25 03:34:50 UTC`.
    let created: String
    /// The screenshot's address, or nil when the bug has none.
    let screenshotURL: String?

    init(_ row: BugRow, tab: String) {
        id = "bug-\(row.reference)"
        reference = row.reference.description
        projectReference = row.project.description
        title = row.title
        details = row.details
        createdISO = row.created.formatted(.iso8601)
        created = row.created.formatted(Self.shortDate) + " UTC"
        screenshotURL = row.hasScreenshot ? BugsPaths.screenshot(row.reference, tab: tab) : nil
    }

    private static let shortDate = Date.ISO8601FormatStyle(timeZone: .gmt)
        .year().month().day().dateSeparator(.dash).dateTimeSeparator(.space)
        .time(includingFractionalSeconds: false)
}
