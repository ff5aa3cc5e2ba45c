import Foundation

extension FetchRequest where ResultType: ManagedObject {
    /// A request for objects of `ResultType`'s entity, filtered by a `#Predicate` and
    /// ordered by Foundation `SortDescriptor`s, both lowered to their Core Data forms.
    ///
    /// ```swift
    /// let request = try FetchRequest<Item>(
    ///     predicate: #Predicate { $0.title.starts(with: "M") },
    ///     sortBy: [SortDescriptor(\.order)]
    /// )
    /// ```
    ///
    /// - Throws: `.invalidPredicate` or `.invalidFetchRequest` for a part without a Core
    ///   Data form (see `CDPredicate.init(_:)` and `CDSortDescriptor.init(_:)`).
    public convenience init(predicate: Predicate<ResultType>? = nil, sortBy sortDescriptors: [SortDescriptor<ResultType>] = []) throws {
        self.init()
        if let predicate { try setPredicate(predicate) }
        if !sortDescriptors.isEmpty { try setSortDescriptors(sortDescriptors) }
    }

    /// Sets `predicate` from a `#Predicate`, lowered with `CDPredicate.init(_:)`.
    public func setPredicate(_ predicate: Predicate<ResultType>) throws {
        self.predicate = try CDPredicate(predicate)
    }

    /// Sets `sortDescriptors` from Foundation `SortDescriptor`s, first one first.
    public func setSortDescriptors(_ descriptors: [SortDescriptor<ResultType>]) throws {
        sortDescriptors = try descriptors.map(CDSortDescriptor.init)
    }
}
