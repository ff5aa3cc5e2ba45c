import Foundation

/// The section caches of fetched results controllers, by cache name, in memory for the
/// process (see `FetchedResultsController.deleteCache(withName:)`).
final class FetchedResultsCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only touched under `lock`.
    static let shared = FetchedResultsCache()

    /// What one cache holds: the request it was computed for, the context and its event
    /// then, and the objects' IDs with their section names.
    private struct Entry {
        let fingerprint: String
        let context: ObjectIdentifier
        let event: UInt32
        let ids: [ManagedObjectID]
        let sectionNames: [String]
        let sectionCounts: [Int]
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// What identifies a controller's request: entity, predicate, sort, sections.
    static func fingerprint(_ plan: FetchedResultsPlan) -> String {
        let query = plan.query
        return [query.entity.name, query.entityNumbers.sorted().description, query.predicate?.predicateFormat ?? "",
                query.sortDescriptors.description, plan.sectionNameKeyPath ?? "\u{0}"].joined(separator: "\u{1}")
    }

    /// The content of `fetched` with the cached sections, when cache `name` holds them for
    /// the same request, objects and context, with no event of the context since.
    func content<ResultType>(named name: String?, for fetched: [ResultType], plan: FetchedResultsPlan, in context: ManagedObjectContext) -> FetchedResultsContent<ResultType>? {
        guard let name, plan.sectionNameKeyPath != nil else { return nil }
        let entry = lock.withLock { entries[name] }
        guard let entry, entry.fingerprint == Self.fingerprint(plan), entry.context == ObjectIdentifier(context),
              entry.event == context.eventNumber, entry.ids.count == fetched.count,
              zip(entry.ids, fetched).allSatisfy({ $0 == $1.objectID }) else { return nil }
        return FetchedResultsContent(fetched, descriptors: plan.query.sortDescriptors, sectionNameKeyPath: plan.sectionNameKeyPath,
                                     sections: (entry.sectionNames, entry.sectionCounts))
    }

    /// Keeps `content`'s sections under `name`.
    func store<ResultType>(_ content: FetchedResultsContent<ResultType>, named name: String?, plan: FetchedResultsPlan, in context: ManagedObjectContext) {
        guard let name, plan.sectionNameKeyPath != nil else { return }
        let entry = Entry(fingerprint: Self.fingerprint(plan), context: ObjectIdentifier(context), event: context.eventNumber,
                          ids: content.objects.map(\.objectID), sectionNames: content.sectionNames, sectionCounts: content.sectionCounts)
        lock.withLock { entries[name] = entry }
    }

    /// Forgets cache `name`, or all caches.
    func delete(named name: String?) {
        lock.withLock {
            if let name { entries[name] = nil } else { entries.removeAll() }
        }
    }

    /// Whether cache `name` exists (for tests).
    func contains(_ name: String) -> Bool {
        lock.withLock { entries[name] != nil }
    }
}
