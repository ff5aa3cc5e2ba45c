import Foundation
import OpenCoreData
import Synchronization

/// Turns a fetched results controller's delegate callbacks into `LiveChange` batches for
/// one page's event stream. The controller lives on the tab's context, so the tab's own
/// actions, other tabs' saves (merged automatically) and other processes' saves (merged
/// from the history) all reach the page the same way.
///
/// A batch is sent after the event that made it has finished — the action saved, so
/// inserted objects have their permanent IDs — by a block queued on the context.
final class LiveFeed<Object: ManagedObject>: FetchedResultsControllerDelegate, @unchecked Sendable {
    // @unchecked Sendable: everything but `continuation` (itself Sendable) is used on
    // the context's queue only: the callbacks run there, and `start`, `flush` and `stop`
    // are called there.

    private struct RowChange {
        let type: FetchedResultsChangeType
        let object: Object
        let rowID: String?
    }

    private let controller: FetchedResultsController<Object>
    private let rendering: LiveRendering<Object>
    private let tab: Tab
    private let continuation: AsyncStream<ServerSentEvent>.Continuation
    private var rows: [RowChange] = []
    private var sections: [(type: FetchedResultsChangeType, name: String)] = []
    private var flushQueued = false

    init(controller: FetchedResultsController<Object>, rendering: LiveRendering<Object>, tab: Tab, continuation: AsyncStream<ServerSentEvent>.Continuation) {
        self.controller = controller
        self.rendering = rendering
        self.tab = tab
        self.continuation = continuation
    }

    private var context: ManagedObjectContext { controller.managedObjectContext }

    /// Starts a feed of `controller` (on `tab`'s view context) into `continuation`: the
    /// whole list first, then every change. Returns what stops it. Waits for the view's
    /// queue: call it off the cooperative pool.
    ///
    /// The feed, its controller and the objects they hold are let go on the context's
    /// queue, never by the caller: a managed object must not be released off its
    /// context's queue, where the context's identity map would change under its feet.
    static func start(
        _ controller: FetchedResultsController<Object>, rendering: LiveRendering<Object>, tab: Tab,
        continuation: AsyncStream<ServerSentEvent>.Continuation
    ) throws -> @Sendable () -> Void {
        let context = controller.managedObjectContext
        let held = Mutex<LiveFeed?>(LiveFeed(controller: controller, rendering: rendering, tab: tab, continuation: continuation))
        let stop: @Sendable () -> Void = {
            context.perform {
                let feed = held.withLock { $0.take() }
                feed?.end()
            }
        }
        do {
            try tab.session.read { _ in try held.withLock { $0 }?.start() }
        } catch {
            stop()
            throw error
        }
        return stop
    }

    /// Fetches, sends the whole list as a `reset` event, and starts listening. Call on
    /// the context's queue.
    func start() throws {
        controller.delegate = self
        try controller.performFetch()
        let undo = tab.undoState
        continuation.yield(try .json("reset", LiveReset(html: try rendering.listHTML(controller), undo: undo.undo, redo: undo.redo)))
    }

    /// Stops listening (the stream ended) and drops the changes not sent. Call on the
    /// context's queue.
    private func end() {
        controller.delegate = nil
        rows = []
        sections = []
    }

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange anObject: ResultType, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let object = anObject as? Object else { return }
        rows.append(RowChange(type: type, object: object, rowID: rendering.rowID(object)))
    }

    func controller<ResultType>(_ controller: FetchedResultsController<ResultType>, didChange sectionInfo: FetchedResultsSectionInfo<ResultType>, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        sections.append((type, sectionInfo.name))
    }

    func controllerDidChangeContent<ResultType>(_ controller: FetchedResultsController<ResultType>) {
        guard !flushQueued else { return }
        flushQueued = true
        context.perform { self.flush() }
    }

    /// Sends the changes recorded since the last batch, rendered as the objects are now.
    private func flush() {
        flushQueued = false
        guard controller.delegate === self else { return }
        let recordedRows = rows, recordedSections = sections
        rows = []
        sections = []
        do {
            let ops = try operations(rows: recordedRows, sections: recordedSections)
            guard !ops.isEmpty else { return }
            continuation.yield(try .json("change", LiveChange(ops: ops)))
        } catch {
            // A row that cannot be rendered: send the whole list instead.
            try? start()
        }
    }

    /// The DOM operations for recorded changes: section and row deletions first, then new
    /// sections, then inserted and moved rows in their final order, then updated rows.
    private func operations(rows recorded: [RowChange], sections recordedSections: [(type: FetchedResultsChangeType, name: String)]) throws -> [LiveOp] {
        var ops: [LiveOp] = []
        for section in recordedSections where section.type == .delete {
            ops.append(LiveOp(op: .deleteSection, section: section.name))
        }
        for change in recorded where change.type == .delete {
            if let id = change.rowID { ops.append(LiveOp(op: .delete, id: id)) }
        }
        let sectionNames = (controller.sections ?? []).map(\.name)
        for section in recordedSections where section.type == .insert {
            guard let index = sectionNames.firstIndex(of: section.name) else { continue }
            let following = index + 1 < sectionNames.count ? sectionNames[index + 1] : nil
            ops.append(LiveOp(op: .insertSection, section: section.name, html: try rendering.sectionHTML(section.name), before: following))
        }
        var placed: [(IndexPath, LiveOp)] = []
        var updated: [LiveOp] = []
        var seen: Set<ObjectIdentifier> = []
        for change in recorded where change.type != .delete && seen.insert(ObjectIdentifier(change.object)).inserted {
            guard let id = rendering.rowID(change.object),
                  let indexPath = controller.indexPath(forObject: change.object) else { continue }
            let html = try rendering.rowHTML(change.object)
            switch change.type {
            case .insert, .move:
                let sectionName = indexPath.section < sectionNames.count ? sectionNames[indexPath.section] : nil
                placed.append((indexPath, LiveOp(op: change.type == .insert ? .insert : .move, id: id, section: sectionName, html: html, before: rowID(after: indexPath))))
            default:
                updated.append(LiveOp(op: .update, id: id, html: html))
            }
        }
        ops += placed.sorted { $0.0 < $1.0 }.map(\.1)
        return ops + updated
    }

    /// The id of the first saved row after `indexPath` in its section, if any.
    private func rowID(after indexPath: IndexPath) -> String? {
        guard let sections = controller.sections, indexPath.section < sections.count else { return nil }
        let objects = sections[indexPath.section].objectsSlice
        var index = objects.startIndex + indexPath.row + 1
        while index < objects.endIndex {
            if let id = rendering.rowID(objects[index]) { return id }
            index += 1
        }
        return nil
    }
}
