import Foundation
import OpenCoreData
import OpenCoreDataTestSupport

/// The fetched results controller tests' model: projects (name, active) with tasks
/// (title, group, rank, done, project).
enum TaskModel {
    static func make() -> ManagedObjectModel {
        let project = EntityDescription(name: "Project", properties: [
            AttributeDescription(name: "name", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "active", type: .boolean, isOptional: false, defaultValue: true),
        ])
        let task = EntityDescription(name: "Task", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "group", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "rank", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "done", type: .boolean, isOptional: false, defaultValue: false),
        ])
        let tasks = RelationshipDescription(name: "tasks", destination: task, toMany: true, deleteRule: .cascade)
        let owner = RelationshipDescription(name: "project", destination: project, deleteRule: .nullify)
        tasks.setInverse(owner)
        project.properties += [tasks]
        task.properties += [owner]
        return ManagedObjectModel(entities: [project, task])
    }
}

/// A table view's model of a controller's content: section names and their objects,
/// changed only by applying the delegate's batches the way `UITableView.performBatchUpdates`
/// does — deletes (rows, then sections, descending) against the old state, then section
/// inserts and row inserts (ascending) against the new one; a move is a delete at its
/// old index path and an insert at its new one; an update changes nothing but must name
/// a row of the old state that is not deleted.
final class TableModel<Element: Equatable>: FetchedResultsControllerDelegate {
    var sections: [(name: String, rows: [Element])] = []
    let element: (ManagedObject) -> Element
    let reporting: FetchedResultsChangeReporting
    /// Problems with the last batches (an index path outside the state it refers to…).
    var problems: [String] = []
    var batches = 0

    private var sectionDeletes: [Int] = []
    private var sectionInserts: [(Int, String)] = []
    private var rowDeletes: [IndexPath] = []
    private var rowInserts: [(IndexPath, Element)] = []
    private var updates: [IndexPath] = []
    private var inBatch = false

    init(reporting: FetchedResultsChangeReporting, element: @escaping (ManagedObject) -> Element) {
        self.reporting = reporting
        self.element = element
    }

    var changeReporting: FetchedResultsChangeReporting { reporting }

    func controllerWillChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) {
        if inBatch { problems.append("willChangeContent twice") }
        inBatch = true
    }

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        if !rowDeletes.isEmpty || !rowInserts.isEmpty || !updates.isEmpty { problems.append("a section change after an object change") }
        switch type {
        case .delete: sectionDeletes.append(sectionIndex)
        case .insert: sectionInserts.append((sectionIndex, sectionInfo.name))
        default: problems.append("section change \(type)")
        }
    }

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let object = anObject as ManagedObject
        switch type {
        case .insert:
            guard let newIndexPath, indexPath == nil else { return problems.append("insert without a new index path") }
            rowInserts.append((newIndexPath, element(object)))
        case .delete:
            guard let indexPath, newIndexPath == nil else { return problems.append("delete without an index path") }
            rowDeletes.append(indexPath)
        case .move:
            guard let indexPath, let newIndexPath else { return problems.append("move without both index paths") }
            rowDeletes.append(indexPath)
            rowInserts.append((newIndexPath, element(object)))
        case .update:
            guard let indexPath, newIndexPath == nil else { return problems.append("update without an index path") }
            updates.append(indexPath)
        }
    }

    func controllerDidChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) {
        defer {
            inBatch = false
            sectionDeletes = []; sectionInserts = []; rowDeletes = []; rowInserts = []; updates = []
        }
        guard inBatch else { return problems.append("didChangeContent without willChangeContent") }
        batches += 1
        for path in updates + rowDeletes where !exists(path) { problems.append("\(path) is not in the old state") }
        if Set(rowDeletes).count != rowDeletes.count { problems.append("a row deleted twice") }
        if Set(updates).intersection(rowDeletes).count > 0 { problems.append("an updated row is also deleted") }
        for path in rowDeletes.sorted(by: >) where exists(path) { sections[path[0]].rows.remove(at: path[1]) }
        for index in sectionDeletes.sorted(by: >) {
            guard sections.indices.contains(index) else { problems.append("section \(index) is not in the old state"); continue }
            if !sections[index].rows.isEmpty { problems.append("section \(index) deleted with rows left") }
            sections.remove(at: index)
        }
        for (index, name) in sectionInserts.sorted(by: { $0.0 < $1.0 }) {
            guard index <= sections.count else { problems.append("section \(index) inserted past the end"); continue }
            sections.insert((name, []), at: index)
        }
        for (path, element) in rowInserts.sorted(by: { $0.0 < $1.0 }) {
            guard sections.indices.contains(path[0]), path[1] <= sections[path[0]].rows.count else {
                problems.append("insert at \(path) outside the new state"); continue
            }
            sections[path[0]].rows.insert(element, at: path[1])
        }
    }

    private func exists(_ path: IndexPath) -> Bool {
        path.count == 2 && sections.indices.contains(path[0]) && sections[path[0]].rows.indices.contains(path[1])
    }

    // MARK: - Difference and snapshot forms

    var flat: [ManagedObjectID] = []
    var snapshot: FetchedResultsSnapshot?

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
        batches += 1
        guard let applied = flat.applying(difference) else { return problems.append("the difference does not apply") }
        flat = applied
    }

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChangeContentWithSnapshot snapshot: FetchedResultsSnapshot) {
        batches += 1
        self.snapshot = snapshot
    }
}
