import BugsKit
import EditingSession
import OpenCoreData

/// How the project list is drawn — a row, a section, all the sections — for its page and
/// for its live feed alike, so that an inserted row looks like a loaded one.
struct ProjectsRendering: Sendable {
    /// A section's name, index title and saved projects, as the page or the controller has them.
    struct Section: Sendable {
        let name: String
        let indexTitle: String?
        let rows: [ProjectRow]
    }

    let pages: Pages
    /// The hidden fields of the rows' forms.
    let form: FormValues
    /// Whether the list is a search's results: one section, no edit forms.
    let isSearching: Bool

    func row(_ row: ProjectRow) throws -> String {
        try pages.renderRow("project-row", ProjectRowValues(row, allowsEditing: !isSearching, form: form))
    }

    func section(_ section: Section) throws -> String {
        let rows = try section.rows.map(row).joined()
        return try pages.render("projects-section", ProjectSectionValues(
            name: section.name, indexTitle: section.indexTitle, isSearching: isSearching, rows: rows))
    }

    /// Every section's HTML. A search shows its one section even when nothing matches, so
    /// that a row the live feed inserts has its place.
    func sections(_ sections: [Section]) throws -> String {
        if isSearching, sections.isEmpty { return try section(Section(name: "", indexTitle: nil, rows: [])) }
        return try sections.map(section).joined()
    }
}

extension ProjectsRendering.Section {
    /// The sections of a page's list.
    static func sections(of list: ProjectList) -> [Self] {
        list.sections.map { Self(name: $0.name, indexTitle: $0.indexTitle, rows: $0.projects) }
    }

    /// The sections `controller` holds now, with its saved projects only (one inserted by
    /// a save still under way has no reference yet). Call on the context's queue.
    static func sections(of controller: ProjectListController, session: EditingSession) -> [Self] {
        (controller.sections ?? []).map { section in
            Self(name: section.name, indexTitle: section.indexTitle,
                 rows: section.objects.compactMap { try? ProjectRow($0, session: session) })
        }
    }
}
