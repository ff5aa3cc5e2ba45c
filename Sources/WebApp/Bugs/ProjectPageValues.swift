import Mustache

/// The values of a project's page, `/projects/{ref}` (`Templates/project.mustache`): the
/// project, the add-bug form, and its bugs newest first.
struct ProjectPageValues: Sendable {
    let chrome: PageChrome
    let form: FormValues
    let project: ProjectRowValues
    /// The bugs' event stream.
    let live: String
    /// The rows' HTML, rendered by `bug-row`.
    let rows: String
    let isEmpty: Bool
}

extension ProjectPageValues: MustacheParent {
    /// Mustache reads the values by name, without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": self.chrome
        case "form": self.form
        case "project": self.project
        case "live": self.live
        case "rows": self.rows
        case "isEmpty": self.isEmpty
        default: nil
        }
    }
}
