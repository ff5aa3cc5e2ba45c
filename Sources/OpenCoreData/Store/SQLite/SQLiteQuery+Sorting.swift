import Foundation

/// Sort descriptors to ORDER BY terms. Strings order by the descriptor's selector through
/// the collations `SQLiteFunctions` registers (calling `StringOrdering.compare`, as the
/// in-memory sort does); other values by SQLite's order, which for one kind of value is
/// `ValueComparison`'s. NULLs come first ascending and last descending, as in memory.
extension SQLiteQuery {
    mutating func orderTerm(for descriptor: CDSortDescriptor) throws -> String {
        let components = Self.components(descriptor.key)
        guard case .scalar(let value) = try operand(keyPath: components, from: root, in: nil, whole: descriptor.key) else {
            throw CoreDataError.toManyKeyNotAllowed(descriptor.key, in: .sortDescriptor)
        }
        var term = value.sql
        if value.kind == .string, let collation = SQLiteFunctions.collation(for: descriptor.selector) {
            term += " COLLATE \(collation)"
        }
        return term + (descriptor.ascending ? " ASC" : " DESC")
    }
}
