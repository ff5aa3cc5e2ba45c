import EditingSession
import Foundation
import OpenCoreData

extension BugTracker {
    // MARK: - Reading

    /// The project list as rows: sectioned by host, or — with a non-empty `searchText` —
    /// the projects whose name or URL contains it (case-insensitively), in one section,
    /// with `allowsEditing` false. See `ProjectListController` for the order and where
    /// projects without a host go.
    public func projectList(searchText: String? = nil) throws -> ProjectList {
        try session.read { _ in try ProjectList(makeProjectListController(searchText: searchText), session: session) }
    }

    /// A live project list for a page, on the session's context, fetched. Use it, and
    /// set its delegate, on the context's queue (inside `session.read`).
    public func makeProjectListController(searchText: String? = nil) throws -> ProjectListController {
        try session.read { context in
            let controller = try ProjectListController(context: context, searchText: searchText)
            try controller.performFetch()
            return controller
        }
    }

    /// The project `reference` names.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown or deleted reference.
    public func project(_ reference: Reference<Project>) throws -> ProjectRow {
        try session.read { _ in try ProjectRow(session.object(reference), session: session) }
    }

    /// The project a command line names, by reference (`12`) or by exact name (`Swift`).
    ///
    /// A reference wins: when `identifier` is the reference of a project, that project is
    /// the answer even if another project is named `12`. Otherwise the project whose name
    /// is exactly `identifier` (case-sensitive, surrounding whitespace ignored). Names need
    /// not be unique: when several projects have it, nothing is guessed.
    ///
    /// - Throws: `BugTrackerError.noProjectNamed` when none matches,
    ///   `.ambiguousProjectName` listing the candidates' references when several do.
    public func lookupProject(_ identifier: String) throws -> ProjectRow {
        try session.read { context in
            if let reference = Reference<Project>(identifier) {
                do {
                    return try ProjectRow(session.object(reference), session: session)
                } catch EditingSessionError.notFound {
                    // Not a project's reference: try it as a name.
                }
            }
            let name = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
            let request = FetchRequest<Project>(entityName: "Project")
            request.predicate = try CDPredicate(format: "name == %@", name)
            let matches = try context.fetch(request).map { try ProjectRow($0, session: session) }
            guard let first = matches.first else { throw BugTrackerError.noProjectNamed(name) }
            guard matches.count == 1 else {
                let references = matches.map(\.reference).sorted { $0.primaryKey < $1.primaryKey }
                throw BugTrackerError.ambiguousProjectName(name, references: references.map(\.description))
            }
            return first
        }
    }

    // MARK: - Actions

    /// Adds a project, as the action “Add Project “name””.
    ///
    /// - Parameters:
    ///   - name: 1 to `Limits.nameLength` characters, one line (trimmed).
    ///   - url: nil or empty for none, else a URL `validatedURL(_:)` accepts; the
    ///     project's `host` is derived from it.
    /// - Returns: the new project's row.
    /// - Throws: `BugTrackerError` for bad input; nothing is added then.
    @discardableResult
    public func addProject(name: String, url: String? = nil) throws -> ProjectRow {
        let name = try Self.validatedLine(name, .name, limit: Limits.nameLength)
        let url = try Self.validatedURL(url)
        return try session.perform({ context in
            let project = Project(context: context)
            project.name = name
            project.url = url
            return project
        }, named: { "Add Project “\($0.name)”" }, saved: { try ProjectRow($0, session: session) })
    }

    /// Changes a project's name and/or URL, as the action “Edit Project “new name””.
    ///
    /// - Parameters:
    ///   - name: the new name, or nil to keep it.
    ///   - url: the new URL, `""` to remove it, or nil to keep it.
    /// - Throws: `BugTrackerError` for bad input, `EditingSessionError.notFound` for an
    ///   unknown reference; nothing changes then.
    @discardableResult
    public func editProject(_ reference: Reference<Project>, name: String? = nil, url: String? = nil) throws -> ProjectRow {
        let name = try name.map { try Self.validatedLine($0, .name, limit: Limits.nameLength) }
        let url = try url.map { try Self.validatedURL($0) }
        return try session.perform({ _ in
            let project = try session.object(reference)
            if let name, project.name != name { project.name = name }
            if let url, project.url != url { project.url = url }
            return project
        }, named: { "Edit Project “\($0.name)”" }, saved: { try ProjectRow($0, session: session) })
    }

    /// Deletes a project and its bugs, as the action “Delete Project “name””; undo brings
    /// them all back.
    ///
    /// - Throws: `EditingSessionError.notFound` for an unknown reference.
    public func deleteProject(_ reference: Reference<Project>) throws {
        try session.perform({ context in
            let project = try session.object(reference)
            let name = project.name
            context.delete(project)
            return name
        }, named: { "Delete Project “\($0)”" })
    }
}
