import Mustache

/// The values of `/projects` (`Templates/projects.mustache`): the search form, the add
/// form (not while searching), the section index and the sections.
struct ProjectsPageValues: Sendable {
    /// One entry of the section index: its title and the section it links to.
    struct IndexEntry: Sendable {
        let title: String
        let anchor: String
    }

    let chrome: PageChrome
    let form: FormValues
    /// The search text, "" when not searching (the search field's value).
    let searchText: String
    let isSearching: Bool
    /// The section index, one entry per title (linking to its first section); empty while
    /// searching.
    let index: [IndexEntry]
    let hasIndex: Bool
    /// The sections' event stream.
    let live: String
    /// The sections' HTML, rendered by `projects-section`.
    let sections: String
    /// Whether no project is shown (none yet, or none matches).
    let isEmpty: Bool
}

extension ProjectsPageValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": self.chrome
        case "form": self.form
        case "searchText": self.searchText
        case "isSearching": self.isSearching
        case "index": self.index
        case "hasIndex": self.hasIndex
        case "live": self.live
        case "sections": self.sections
        case "isEmpty": self.isEmpty
        default: nil
        }
    }
}

extension ProjectsPageValues.IndexEntry: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "title": self.title
        case "anchor": self.anchor
        default: nil
        }
    }
}
