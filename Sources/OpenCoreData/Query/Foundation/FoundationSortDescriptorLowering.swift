import Foundation

extension CDSortDescriptor {
    /// Lowers a Foundation `SortDescriptor` over a typed `ManagedObject` subclass: the key
    /// from its `@Managed` property, `ascending` from `order`, and the selector from its
    /// string comparator (`.lexical` is `.compare`; where Foundation offers them,
    /// `.localizedStandard` is `.localizedStandardCompare` and `.localized` is
    /// `.localizedCompare`). For example:
    ///
    /// ```swift
    /// let sort = try CDSortDescriptor(SortDescriptor(\Item.order, order: .reverse))
    /// // CDSortDescriptor(key: "order", ascending: false)
    /// ```
    ///
    /// - Throws: `.invalidFetchRequest` when the key path is not a `@Managed` property of
    ///   the class (a computed property, a path through a relationship).
    public init<Root: ManagedObject>(_ descriptor: SortDescriptor<Root>) throws {
        guard let keyPath = descriptor.keyPath, let key = ManagedPropertyNames.name(of: keyPath) else {
            throw CoreDataError(
                .invalidFetchRequest,
                "The SortDescriptor's key path \(descriptor.keyPath.map { "\($0)" } ?? "(none)") is not a @Managed property of \(Root.self)"
            )
        }
        self.init(
            key: key,
            ascending: descriptor.order == .forward,
            selector: descriptor.stringComparator.map(Self.selector(for:)) ?? .compare
        )
    }

    /// The Core Data selector that orders strings as `comparator` does.
    static func selector(for comparator: String.StandardComparator) -> Selector {
        if String.StandardComparator(comparator, order: .forward) == .lexical { return .compare }
        let options = String.Comparator(comparator).options
        if options.contains(.numeric) { return .localizedStandardCompare }
        if options.contains(.caseInsensitive) { return .localizedCaseInsensitiveCompare }
        return .localizedCompare
    }
}
