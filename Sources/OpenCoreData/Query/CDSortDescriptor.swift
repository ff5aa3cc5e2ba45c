import Foundation

/// How to order objects by one key: Core Data's `NSSortDescriptor`.
///
/// Strings order by `selector` (`StringOrdering`); other values with `ValueComparison`'s
/// rules (numbers by value…), whatever the selector. `nil` — and a key path that cannot be
/// read — sorts before every value when ascending, after every value when descending.
/// Values of unrelated types order by type: numbers, strings, dates, data, UUIDs, URLs,
/// object IDs, arrays.
public struct CDSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The comparison method, as Core Data names its selectors.
    public enum Selector: Sendable, Hashable, CaseIterable {
        /// `compare:` — the default ordering.
        case compare
        /// `caseInsensitiveCompare:` — strings ordered with case folded.
        case caseInsensitiveCompare
        /// `localizedCompare:` — strings ordered as the current locale orders them.
        case localizedCompare
        /// `localizedCaseInsensitiveCompare:` — the locale's order, case folded.
        case localizedCaseInsensitiveCompare
        /// `localizedStandardCompare:` — Finder-like: the locale's order, case folded, and
        /// digits compared as numbers ("a2" before "a10").
        case localizedStandardCompare
    }

    /// The key path sorted on: a key, or a `.`-separated to-one path (`parent.title`).
    public let key: String
    /// Whether smaller values come first.
    public let ascending: Bool
    /// The comparison method.
    public let selector: Selector

    /// Sorts by `key`, smallest first unless `ascending` is false.
    public init(key: String, ascending: Bool = true, selector: Selector = .compare) {
        self.key = key
        self.ascending = ascending
        self.selector = selector
    }

    /// The same sort, in the other direction.
    public var reversedSortDescriptor: CDSortDescriptor {
        CDSortDescriptor(key: key, ascending: !ascending, selector: selector)
    }

    /// How `a` and `b` order by this descriptor, reading `key` from each
    /// (a `KeyValueCoding` object or a `[String: Any]` dictionary).
    public func compare(_ a: Any, _ b: Any) -> ComparisonResult {
        compareValues(sortValue(of: a), sortValue(of: b))
    }

    public var description: String {
        "(\(key), \(ascending ? "ascending" : "descending"), \(selector))"
    }

    // MARK: - Values

    /// The comparable value at `key` of `object`; unreadable values sort like `nil`.
    package func sortValue(of object: Any) -> SortValue {
        guard let raw = try? KeyPathReader.value(of: object, keyPath: key) else { return .value(.null) }
        guard let value = CDValue(converting: raw) else { return .opaque }
        return .value(value)
    }

    /// Compares two values read with `sortValue(of:)`, in this descriptor's direction.
    package func compareValues(_ lhs: SortValue, _ rhs: SortValue) -> ComparisonResult {
        let order: ComparisonResult
        if selector != .compare, case .value(.string(let a)) = lhs, case .value(.string(let b)) = rhs {
            order = StringOrdering.compare(a, b, selector)
        } else {
            order = lhs.sortOrder(rhs)
        }
        return ascending ? order : order.reversed
    }

    /// A value to sort on: a `CDValue`, or a value without one (sorted last, all equal).
    package enum SortValue {
        case value(CDValue)
        case opaque

        func sortOrder(_ other: SortValue) -> ComparisonResult {
            switch (self, other) {
            case let (.value(a), .value(b)): return ValueComparison.sortOrder(a, b)
            case (.value, .opaque): return .orderedAscending
            case (.opaque, .value): return .orderedDescending
            case (.opaque, .opaque): return .orderedSame
            }
        }
    }
}

// MARK: - Sorting collections

extension CDSortDescriptor {
    /// `objects` sorted by `descriptors` (the first decides, the next break ties); stable:
    /// objects equal under every descriptor keep their order. Each key is read once per object.
    package static func sort<Element>(_ objects: [Element], by descriptors: [CDSortDescriptor]) -> [Element] {
        guard !descriptors.isEmpty, objects.count > 1 else { return objects }
        let keys = objects.map { object in descriptors.map { $0.sortValue(of: object) } }
        let order = objects.indices.sorted { left, right in
            for (position, descriptor) in descriptors.enumerated() {
                let result = descriptor.compareValues(keys[left][position], keys[right][position])
                if result != .orderedSame { return result == .orderedAscending }
            }
            return left < right
        }
        return order.map { objects[$0] }
    }
}
