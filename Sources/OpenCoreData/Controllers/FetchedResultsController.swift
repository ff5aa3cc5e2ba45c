import Foundation

/// The results of a fetch request, in sections, kept up to date as its context changes:
/// Core Data's `NSFetchedResultsController`, for table and collection views (and any UI
/// that shows a live list).
///
/// ```swift
/// let request = FetchRequest<Item>()
/// request.sortDescriptors = [CDSortDescriptor(key: "group"), CDSortDescriptor(key: "title")]
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: "group", cacheName: nil)
/// controller.delegate = tableUpdater
/// try controller.performFetch()
/// ```
///
/// While it has a delegate, the controller follows every event of its context (each
/// `processPendingChanges()`, which saves and fetches call first): inserts, deletes,
/// edits that move an object in or out of the predicate, across sections or within the
/// sort order, and changes merged from other contexts. Without a delegate it does not
/// track changes, as in Core Data; call `performFetch()` after setting one if the context
/// changed meanwhile. Use it on its context's queue.
///
/// The request needs sort descriptors, and a section key path must order objects as the
/// first sort descriptor does. `fetchLimit` and `fetchOffset` apply to `performFetch()`
/// only (as in Core Data, changes are not trimmed to the window); `includesPendingChanges`
/// is always in effect.
open class FetchedResultsController<ResultType: ManagedObject> {
    /// The request whose results the controller keeps. Change it, then call `performFetch()`.
    public let fetchRequest: FetchRequest<ResultType>
    /// The context the objects live in and whose changes the controller follows.
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names each object's section; nil for one section.
    public let sectionNameKeyPath: String?
    /// The name of the section cache (see `deleteCache(withName:)`); nil for none.
    public let cacheName: String?

    /// Who receives the changes; held weakly. Setting nil stops tracking changes.
    public weak var delegate: (any FetchedResultsControllerDelegate)? {
        didSet { delegateDidChange() }
    }

    /// Beyond Core Data (whose controller famously does not): also react when an object
    /// that a key path of the predicate, a sort descriptor or the section key path reaches
    /// through a relationship changes — sorted by `project.name`, a project is renamed.
    /// The objects that point at it are found through the relationships' inverses (a
    /// relationship without an inverse makes the controller re-check every fetched
    /// object; objects that *enter* the results that way need the inverse). Off by
    /// default; read at each event.
    public var observesRelatedObjects = false

    var content: FetchedResultsContent<ResultType>?
    var plan: FetchedResultsPlan?
    /// Tokens of the consumers attached to the context, while tracking.
    private var changeToken: Int?
    private var permanentIDToken: Int?
    /// The context's event number when the content was last made current; nil once an
    /// event went by untracked.
    private var currentAtEvent: UInt32?

    /// A controller for `fetchRequest`'s results in `context`. Nothing is fetched until
    /// `performFetch()`.
    public init(fetchRequest: FetchRequest<ResultType>, managedObjectContext context: ManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    deinit {
        detach()
    }

    // MARK: - Fetching

    /// Fetches the request's results and computes the sections; from then on, with a
    /// delegate, follows the context's changes.
    ///
    /// - Throws: `.invalidFetchRequest` when the request has no sort descriptors, does not
    ///   fetch managed objects, names an unknown entity or key, or when the section key
    ///   path does not order objects as the first sort descriptor does (an object whose
    ///   section name returns after another section began: Core Data's "out of order
    ///   section name"); store errors. The previous results stay on failure.
    open func performFetch() throws {
        let context = managedObjectContext
        let query = try StoreFetch(fetchRequest, model: context.parentStore.managedObjectModel)
        guard fetchRequest.resultType == .managedObjectResultType else {
            throw CoreDataError(.invalidFetchRequest, "A FetchedResultsController needs a fetch request with resultType .managedObjectResultType.")
        }
        guard !query.sortDescriptors.isEmpty else {
            throw CoreDataError(.invalidFetchRequest, "A FetchedResultsController needs a fetch request with sort descriptors.")
        }
        if let sectionNameKeyPath {
            try ResolvedKeyPath(sectionNameKeyPath, from: query.entity).requireToOne(in: .sortDescriptor)
        }
        let plan = FetchedResultsPlan(query: query, sectionNameKeyPath: sectionNameKeyPath)
        context.processPendingChanges()
        let fetched = try context.fetch(fetchRequest)
        let content = FetchedResultsCache.shared.content(named: cacheName, for: fetched, plan: plan, in: context)
            ?? FetchedResultsContent(fetched, descriptors: query.sortDescriptors, sectionNameKeyPath: sectionNameKeyPath)
        if let sectionNameKeyPath, let violation = content.sectionOrderViolation() {
            throw CoreDataError(.invalidFetchRequest, "The fetched object at index \(violation.index) has an out of order section name '\(violation.name)'. Objects must be sorted by section name: the first sort descriptor must order by '\(sectionNameKeyPath)'.", key: sectionNameKeyPath)
        }
        self.plan = plan
        self.content = content
        currentAtEvent = context.eventNumber
        FetchedResultsCache.shared.store(content, named: cacheName, plan: plan, in: context)
        if delegate != nil { attach() }
    }

    // MARK: - Results

    /// The fetched objects in order, all sections; nil before `performFetch()`.
    public var fetchedObjects: [ResultType]? { content?.objects }

    /// The sections, in order; nil before `performFetch()`. Without a section key path
    /// there is one section, even with no objects (as in Core Data).
    public var sections: [FetchedResultsSectionInfo<ResultType>]? {
        guard let content else { return nil }
        return content.sectionNames.indices.map { sectionInfo(at: $0, in: content) }
    }

    /// The object at `indexPath` (section, row).
    ///
    /// An index path outside the results is a programmer error, as in Core Data: it traps.
    public func object(at indexPath: IndexPath) -> ResultType {
        guard let content, indexPath.count == 2, content.sectionStarts.indices.contains(indexPath[0]),
              (0 ..< content.sectionCounts[indexPath[0]]).contains(indexPath[1]) else {
            preconditionFailure("FetchedResultsController.object(at:): no object at \(indexPath) (call performFetch() first and use index paths from sections).")
        }
        return content.objects[content.sectionStarts[indexPath[0]] + indexPath[1]]
    }

    /// The index path of `object`, or nil when it is not among the results.
    /// - Complexity: O(log n).
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let content, let index = content.index(of: object) else { return nil }
        return content.indexPath(ofIndex: index)
    }

    // MARK: - Section index

    /// The index title of a section: by default the section name's first letter,
    /// capitalized (nil for an empty name). Override it in a subclass, or answer
    /// `controller(_:sectionIndexTitleForSectionName:)` in the delegate.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        guard let first = sectionName.first else { return nil }
        return String(first).capitalized
    }

    /// The titles of the section index: each section's index title, without repeats,
    /// in section order.
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        return (content?.sectionNames ?? []).compactMap(indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section a section-index entry leads to: the first section whose index title is
    /// `title`; when none has it, the section at `sectionIndex` (clamped to the sections).
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let names = content?.sectionNames ?? []
        if let match = names.firstIndex(where: { indexTitle($0) == title }) { return match }
        return max(0, min(sectionIndex, names.count - 1))
    }

    /// The section index title of `name`: the delegate's, or `sectionIndexTitle(forSectionName:)`.
    func indexTitle(_ name: String) -> String? {
        delegate?.controller(self, sectionIndexTitleForSectionName: name) ?? sectionIndexTitle(forSectionName: name)
    }

    func sectionInfo(at index: Int, in content: FetchedResultsContent<ResultType>) -> FetchedResultsSectionInfo<ResultType> {
        let start = content.sectionStarts[index]
        let name = content.sectionNames[index]
        return FetchedResultsSectionInfo(name: name, indexTitle: indexTitle(name), objectsSlice: content.objects[start ..< start + content.sectionCounts[index]])
    }

    /// The content as a value: section names and object IDs.
    public var snapshot: FetchedResultsSnapshot? {
        guard let content else { return nil }
        return FetchedResultsSnapshot(sections: content.sectionNames.indices.map { index in
            let start = content.sectionStarts[index]
            return .init(name: content.sectionNames[index], objectIDs: content.objects[start ..< start + content.sectionCounts[index]].map(\.objectID))
        })
    }

    // MARK: - Cache

    /// Deletes the section cache named `name`, or every cache when `name` is nil.
    ///
    /// The cache lives in memory, for the process: per name, the sections a controller
    /// last computed, with its request and context. `performFetch()` reuses them (instead
    /// of reading every object's section key path) when the request is the same, the
    /// fetch returned the same objects and its context has had no event since they were
    /// computed — or since a controller tracking it last updated them. Delete a cache
    /// whose objects changed in ways no event of that context recorded (another process).
    public static func deleteCache(withName name: String?) {
        FetchedResultsCache.shared.delete(named: name)
    }

    // MARK: - Tracking

    private func delegateDidChange() {
        guard delegate != nil else {
            if changeToken != nil {
                detach()
                currentAtEvent = nil
            }
            return
        }
        guard changeToken == nil, content != nil, let event = currentAtEvent else { return }
        let context = managedObjectContext
        if context.eventNumber == event && context.ledger.isEmpty {
            attach()
        } else {
            currentAtEvent = nil
        }
    }

    private func attach() {
        guard changeToken == nil else { return }
        let context = managedObjectContext
        changeToken = context.addChangeConsumer { [weak self] changes in self?.receive(changes) }
        permanentIDToken = context.addPermanentIDConsumer { [weak self] objects in self?.receivePermanentIDs(of: objects) }
    }

    private func detach() {
        guard let changeToken else { return }
        let permanentIDToken = permanentIDToken ?? 0
        self.changeToken = nil
        self.permanentIDToken = nil
        let context = managedObjectContext
        if context.isOnQueue {
            context.removeChangeConsumer(changeToken)
            context.removePermanentIDConsumer(permanentIDToken)
        } else {
            context.perform {
                context.removeChangeConsumer(changeToken)
                context.removePermanentIDConsumer(permanentIDToken)
            }
        }
    }

    /// Whether the delegate is still there; stops tracking when it went away.
    private func hasDelegate() -> Bool {
        guard delegate == nil else { return true }
        detach()
        currentAtEvent = nil
        return false
    }

    /// One event of the context.
    private func receive(_ changes: ChangeSet) {
        guard hasDelegate(), content != nil, plan != nil else { return }
        currentAtEvent = managedObjectContext.eventNumber
        if changes.invalidatedAll {
            refetchAfterReset()
            return
        }
        let candidates = self.candidates(for: changes)
        guard !candidates.isEmpty else { return }
        apply(candidates)
    }

    /// Objects whose temporary IDs were replaced: reported by the ID-based forms only.
    private func receivePermanentIDs(of objects: [ManagedObject]) {
        guard hasDelegate(), let delegate, var content else { return }
        let changed = objects.filter(content.isReidentified)
        guard !changed.isEmpty else { return }
        guard delegate.changeReporting != .perChange else {
            content.noteReportedIDs(of: changed)
            self.content = content
            return
        }
        apply(changed.map { .init(object: $0, mayMove: false, reidentified: true) })
    }

    private func apply(_ candidates: [FetchedResultsContent<ResultType>.Candidate]) {
        guard content != nil else { return }
        let batch = content!.apply(candidates, matching: matching)
        if let cacheName, let content, let plan { FetchedResultsCache.shared.store(content, named: cacheName, plan: plan, in: managedObjectContext) }
        deliver(batch)
    }

    /// After `reset()`: every object is new; the results are fetched again and reported
    /// as all removed and all inserted. A failing fetch reports everything removed.
    private func refetchAfterReset() {
        guard content != nil else { return }
        let fetched = (try? managedObjectContext.fetch(fetchRequest)) ?? []
        deliver(content!.replace(with: fetched))
    }

    /// `object` when it belongs to the results now: alive in this context, of the
    /// fetched entities, and matching the predicate.
    func matching(_ object: ManagedObject) -> ResultType? {
        guard let plan, object.context === managedObjectContext, object.lifecycle != .deleted, object.lifecycle != .discarded,
              !object.isInaccessible, plan.query.entityNumbers.contains(object.entity.slots.number),
              let result = object as? ResultType else { return nil }
        if let predicate = plan.query.predicate, !predicate.evaluate(with: object) { return nil }
        return object.isInaccessible ? nil : result
    }
}
