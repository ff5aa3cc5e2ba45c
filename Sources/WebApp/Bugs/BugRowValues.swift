import BugsKit
import Foundation
import Mustache

/// One row of a project's page (`Templates/bug-row.mustache`): a bug, newest first.
struct BugRowValues: Hashable, Sendable {
    /// The reference, `7`: the row is `#bug-7`.
    let ref: String
    /// The reference of the bug's project.
    let project: String
    let title: String
    /// The details, or nil (shown with their line breaks).
    let details: String?
    /// When it was filed, for `<time datetime>`: `2026-11-25T03:34:50Z`.
    let createdISO: String
    /// When it was filed, for people: `2026-11-25 03:34:50 UTC`.
    let created: String
    /// The screenshot's address, or nil when the bug has none.
    let screenshot: String?
    let form: FormValues

    init(_ row: BugRow, form: FormValues) {
        ref = row.reference.description
        project = row.project.description
        title = row.title
        details = row.details
        createdISO = row.created.formatted(.iso8601)
        created = row.created.formatted(Self.shortDate) + " UTC"
        screenshot = row.hasScreenshot ? BugsPaths.screenshot(row.reference, tab: form.tab) : nil
        self.form = form
    }

    private static let shortDate = Date.ISO8601FormatStyle(timeZone: .gmt)
        .year().month().day().dateSeparator(.dash).dateTimeSeparator(.space)
        .time(includingFractionalSeconds: false)
}

extension BugRowValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "ref": self.ref
        case "project": self.project
        case "title": self.title
        case "details": self.details
        case "createdISO": self.createdISO
        case "created": self.created
        case "screenshot": self.screenshot
        case "form": self.form
        default: nil
        }
    }
}
