import Foundation

/// What a fetch can return: managed objects, object IDs, dictionaries or a count.
public protocol FetchRequestResult {}
extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension NSDictionary: FetchRequestResult {}
extension NSNumber: FetchRequestResult {}

/// The kind of results a fetch request returns.
public enum FetchRequestResultType: Sendable {
    /// Managed objects (the default).
    case managedObjectResultType
    /// Object IDs only, without loading values.
    case managedObjectIDResultType
    /// One dictionary per row, of the properties to fetch.
    case dictionaryResultType
    /// A single `NSNumber`: how many objects match.
    case countResultType
}

/// A search for objects of one entity: a predicate, an order, a window.
///
/// ```swift
/// let request = FetchRequest<ManagedObject>(entityName: "Item")
/// request.predicate = try CDPredicate(format: "parent == nil")
/// request.sortDescriptors = [CDSortDescriptor(key: "order", ascending: true)]
/// let roots = try context.fetch(request)
/// ```
public final class FetchRequest<ResultType: FetchRequestResult> {
    /// The name of the entity to fetch.
    public var entityName: String?
    /// The entity to fetch; takes precedence over `entityName`.
    public var entity: EntityDescription?
    /// Which objects to return; nil returns all.
    public var predicate: CDPredicate?
    /// The order of the results, first descriptor first.
    public var sortDescriptors: [CDSortDescriptor]?
    /// The most objects to return; 0 means no limit.
    public var fetchLimit = 0
    /// How many matching objects to skip.
    public var fetchOffset = 0
    /// What kind of results to return.
    public var resultType: FetchRequestResultType = .managedObjectResultType
    /// Whether objects of sub-entities match too.
    public var includesSubentities = true
    /// Whether unsaved inserts, changes and deletes in the context are taken into account.
    public var includesPendingChanges = true
    /// Whether returned objects are faults until a property is read (values are cached
    /// either way, so firing them needs no SQL).
    public var returnsObjectsAsFaults = true
    /// Whether row values are read at all; without them objects fault from the store.
    public var includesPropertyValues = true
    /// How many objects a key-holding result loads at a time; 0 (the default) materialises
    /// each read object on its own. `ManagedObjectContext.fetchResults(_:)` honours it; `fetch(_:)`
    /// returns a Swift array, which cannot be lazy, so it still loads every object (in
    /// one query, as without a batch size).
    public var fetchBatchSize = 0
    /// Relationship key paths ("parent", "children", "children.children") whose objects a
    /// fetch of managed objects loads along with the results, one query per step, so that
    /// walking them later needs no SQL.
    public var relationshipKeyPathsForPrefetching: [String]?

    // MARK: - Dictionary results

    /// For `.dictionaryResultType`: what each dictionary holds, as property names, to-one
    /// key paths ("parent.title"), `PropertyDescription`s or `ExpressionDescription`s.
    /// Nil fetches every attribute and to-one relationship. Ignored for other result types.
    public var propertiesToFetch: [Any]?
    /// For `.dictionaryResultType`: the properties (names, key paths, descriptions) whose
    /// values group the rows; aggregate expressions then apply per group.
    public var propertiesToGroupBy: [Any]?
    /// For grouped dictionary results: which groups to keep. It may use the names of the
    /// fetched properties and expression descriptions.
    public var havingPredicate: CDPredicate?
    /// For `.dictionaryResultType`: whether equal dictionaries are returned once.
    public var returnsDistinctResults = false

    /// A request for objects of the named entity.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// A request with no entity yet; set `entity` or `entityName`.
    public init() {}
}
