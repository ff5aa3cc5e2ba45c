import BugsKit
import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport

/// A tracker on a new store, and the store's content read back through a second context.
final class TrackerFixture {
    let stack: TestStack
    let tracker: BugTracker
    var session: EditingSession { tracker.session }

    init(_ kind: StoreKind) throws {
        stack = try TestStack(model: BugsModel.makeModel(), kind: kind)
        tracker = BugTracker(session: EditingSession(context: stack.context))
    }

    /// What the store holds now, read by a fresh context (so: what was saved).
    func saved() throws -> TrackerState {
        let context = stack.newContext()
        return try context.performAndWait { try TrackerState(context) }
    }
}

/// The whole content of a store, as comparable values.
struct TrackerState: Equatable, CustomStringConvertible {
    struct ProjectState: Equatable {
        var key: Int64, name: String, url: String?, host: String?
        var bugs: [BugState]
    }

    struct BugState: Equatable {
        var key: Int64, title: String, details: String?, created: Date, screenshot: Data?
    }

    var projects: [ProjectState]
    /// Bugs whose project is nil (the model forbids them: always empty).
    var orphanBugs: Int

    init(_ context: ManagedObjectContext) throws {
        let projects = try context.fetch(FetchRequest<Project>(entityName: "Project"))
        self.projects = projects.map { project in
            ProjectState(
                key: project.objectID.primaryKey ?? -1, name: project.name, url: project.url, host: project.host,
                bugs: project.bugs.map {
                    BugState(key: $0.objectID.primaryKey ?? -1, title: $0.title, details: $0.details, created: $0.created, screenshot: $0.screenshot)
                }.sorted { $0.key < $1.key })
        }.sorted { $0.key < $1.key }
        orphanBugs = try context.fetch(FetchRequest<Bug>(entityName: "Bug")).filter { $0.project == nil }.count
    }

    var bugCount: Int { projects.reduce(0) { $0 + $1.bugs.count } }

    /// The invariants every saved state keeps: every bug has a project, every host is
    /// its URL's.
    var violations: [String] {
        var found: [String] = []
        if orphanBugs > 0 { found.append("\(orphanBugs) bug(s) without a project") }
        for project in projects where project.host != Project.host(of: project.url) {
            found.append("project \(project.key) “\(project.name)”: host \(project.host ?? "nil") for url \(project.url ?? "nil")")
        }
        return found
    }

    var description: String {
        projects.map { "\($0.key) \($0.name) \($0.url ?? "-") [\($0.bugs.map { "\($0.key) \($0.title)" }.joined(separator: ", "))]" }
            .joined(separator: "; ")
    }
}
