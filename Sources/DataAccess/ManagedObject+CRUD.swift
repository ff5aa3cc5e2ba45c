import Foundation
import OpenCoreData

// Skopelos' CRUD helpers (`SK_create`, `SK_numberOfEntities`, `SK_all`, `SK_first`,
// `SK_remove`, `SK_removeAll`, `SK_inContext`), Swift-named. Each works on the entity
// bound to the class (see `ManagedObjectClasses`) and, like every use of a context, runs
// on the context's queue: inside a `DALService` block, or `perform`/`performAndWait`.
// Errors are thrown as `CoreDataError`s (Skopelos swallowed them); inside a DALService
// block a thrown error reaches `handleError(_:)`.

/// Gives `ManagedObject` subclasses the CRUD helpers: a protocol, because a class
/// extension cannot return `[Self]`. Every `ManagedObject` conforms.
public protocol ManagedObjectCRUD {}

extension ManagedObject: ManagedObjectCRUD {}

extension ManagedObjectCRUD where Self: ManagedObject {
    // MARK: - Creating and removing

    /// A new object of this class's entity, inserted into `context`.
    @discardableResult
    public static func create(in context: ManagedObjectContext) -> Self {
        guard let model = context.attachedModel, let entity = context.entity(boundTo: self, in: model) else {
            preconditionFailure("\(Self.self).create(in:): no entity of the context's model is bound to class \(Self.self) (or the context has no store yet); register it with ManagedObjectClasses.register(_:).")
        }
        return Self(entity: entity, insertInto: context)
    }

    /// Deletes this object from `context` (at its next save).
    public func remove(in context: ManagedObjectContext) {
        context.delete(self)
    }

    /// Deletes every object of this class's entity in `context`, without loading their
    /// values.
    public static func removeAll(in context: ManagedObjectContext) throws {
        let request = FetchRequest<Self>()
        request.includesPropertyValues = false
        for object in try context.fetch(request) { context.delete(object) }
    }

    // MARK: - Counting

    /// How many objects of this class's entity `context` sees (unsaved changes included).
    public static func count(in context: ManagedObjectContext) throws -> Int {
        try context.count(for: FetchRequest<Self>())
    }

    /// How many of them match `predicate`.
    public static func count(in context: ManagedObjectContext, predicate: CDPredicate) throws -> Int {
        let request = FetchRequest<Self>()
        request.predicate = predicate
        return try context.count(for: request)
    }

    // MARK: - Fetching

    /// Every object of this class's entity.
    public static func all(in context: ManagedObjectContext) throws -> [Self] {
        try context.fetch(FetchRequest<Self>())
    }

    /// The objects matching `predicate` (all without one), sorted by Skopelos' sort terms:
    /// `"lastname,firstname:NO"` — keys separated by commas, each ascending unless
    /// followed by `:NO`.
    ///
    /// - Throws: `.invalidFetchRequest` for malformed terms or a key the entity lacks.
    public static func all(in context: ManagedObjectContext, predicate: CDPredicate? = nil, sortedBy terms: String) throws -> [Self] {
        try fetch(in: context, predicate: predicate, sortDescriptors: try SortTerms.sortDescriptors(terms))
    }

    /// The objects matching `predicate`, sorted by `sortDescriptors`.
    public static func all(in context: ManagedObjectContext, predicate: CDPredicate? = nil, sortedBy sortDescriptors: [CDSortDescriptor]) throws -> [Self] {
        try fetch(in: context, predicate: predicate, sortDescriptors: sortDescriptors)
    }

    /// The objects matching `predicate`, sorted by Foundation `SortDescriptor`s.
    public static func all(in context: ManagedObjectContext, predicate: CDPredicate? = nil, sortedBy sortDescriptors: [SortDescriptor<Self>]) throws -> [Self] {
        try fetch(in: context, predicate: predicate, sortDescriptors: try sortDescriptors.map(CDSortDescriptor.init))
    }

    /// The objects whose `key` equals `value`, sorted by Skopelos' sort terms.
    public static func all(in context: ManagedObjectContext, where key: String, equals value: Any?, sortedBy terms: String) throws -> [Self] {
        try all(in: context, predicate: try equality(key, value), sortedBy: terms)
    }

    /// The first object matching `predicate` (any, without one) in the order of the sort
    /// terms, or nil.
    public static func first(in context: ManagedObjectContext, predicate: CDPredicate? = nil, sortedBy terms: String? = nil) throws -> Self? {
        try fetch(in: context, predicate: predicate, sortDescriptors: try terms.map(SortTerms.sortDescriptors), limit: 1).first
    }

    /// The first object whose `key` equals `value`, or nil.
    public static func first(in context: ManagedObjectContext, where key: String, equals value: Any?) throws -> Self? {
        try first(in: context, predicate: try equality(key, value))
    }

    private static func fetch(in context: ManagedObjectContext, predicate: CDPredicate?, sortDescriptors: [CDSortDescriptor]?, limit: Int = 0) throws -> [Self] {
        let request = FetchRequest<Self>()
        request.predicate = predicate
        request.sortDescriptors = sortDescriptors
        request.fetchLimit = limit
        return try context.fetch(request)
    }

    private static func equality(_ key: String, _ value: Any?) throws -> CDPredicate {
        try CDPredicate(format: "%K == %@", key, value)
    }

    // MARK: - Moving between contexts

    /// This object as seen by `context`: itself when it is already there; otherwise the
    /// object with its ID there, saved or not — an unsaved object gets a permanent ID
    /// first (in its own context, on that context's queue), so the ID means the same in
    /// both. (Skopelos' `SK_inContext` returned nil for saved objects.)
    ///
    /// - Throws: `.objectNotFound` when `context` cannot see the object (an unsaved
    ///   object of a context `context` does not read through).
    public func `in`(_ context: ManagedObjectContext) throws -> Self {
        if managedObjectContext === context { return self }
        if objectID.isTemporaryID, let own = managedObjectContext {
            try own.performAndWait { try own.obtainPermanentIDs(for: [self]) }
        }
        let found = try context.existingObject(with: objectID)
        guard let typed = found as? Self else {
            throw CoreDataError(.objectNotFound, "\(Self.self).in(_:): the object with ID \(objectID) is a \(type(of: found)) in the other context.", objectID: objectID)
        }
        return typed
    }
}
