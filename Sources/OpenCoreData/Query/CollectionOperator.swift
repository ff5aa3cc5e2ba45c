import Foundation

/// A key-path collection operator (`@count`, `@sum`…), as `ResolvedKeyPath` resolves it
/// and `CollectionOperators` and the SQLite store apply it.
enum CollectionOperator: String, Sendable, CaseIterable {
    case count = "@count", sum = "@sum", average = "@avg", minimum = "@min", maximum = "@max"
    case unionOfObjects = "@unionOfObjects", distinctUnionOfObjects = "@distinctUnionOfObjects"
    case unionOfArrays = "@unionOfArrays", distinctUnionOfArrays = "@distinctUnionOfArrays"
    case distinctUnionOfSets = "@distinctUnionOfSets"

    /// The operator named `name` (with its `@`).
    ///
    /// - Throws: `CoreDataError.unknownCollectionOperator` for any other name.
    init(named name: String, keyPath: String) throws {
        guard let known = CollectionOperator(rawValue: name) else {
            throw CoreDataError.unknownCollectionOperator(name, keyPath: keyPath)
        }
        self = known
    }

    /// Whether the operator reduces the collection to one value (a count, sum, average,
    /// minimum or maximum) rather than giving a collection again (the unions).
    var isReducing: Bool {
        switch self {
        case .count, .sum, .average, .minimum, .maximum: return true
        default: return false
        }
    }
}
