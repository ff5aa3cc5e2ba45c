import BugsKit

/// The body of `/projects` as a template shows it: the search form's text, the add form
/// (not while searching), the section index and the sections.
struct ProjectListView: Sendable, Equatable {
    /// One entry of the section index: its title and the section it links to.
    struct IndexEntry: Sendable, Equatable {
        let title: String
        let anchor: String
    }

    /// The search text, "" when not searching (the search field's value).
    let searchText: String
    let isSearching: Bool
    /// Whether projects may be added, edited or deleted here: not in search results.
    let allowsEditing: Bool
    /// The section index: one entry per title, linking to its first section.
    let index: [IndexEntry]
    /// Whether there is a section index to show (not while searching, not when empty).
    let hasIndex: Bool
    let sections: [ProjectSectionView]
    /// Whether there is no project to show (no project yet, or no match).
    let isEmpty: Bool

    init(_ list: ProjectList, tab: String) {
        searchText = list.searchText ?? ""
        isSearching = list.isSearching
        allowsEditing = list.allowsEditing
        sections = list.sections.map { ProjectSectionView($0, tab: tab, isSearching: list.isSearching) }
        var seen: Set<String> = []
        index = list.sections.compactMap { section in
            guard let title = section.indexTitle, seen.insert(title).inserted else { return nil }
            return IndexEntry(title: title, anchor: ProjectSectionView.anchor(forSectionNamed: section.name))
        }
        hasIndex = !index.isEmpty
        isEmpty = list.projects.isEmpty
    }
}
