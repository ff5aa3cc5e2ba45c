import Foundation

/// Compiles predicates to SQL with bound parameters only, giving the in-memory
/// evaluator's answers. Every compiled condition is 0 or 1, never NULL, so `NOT` behaves
/// as in memory; long AND/OR chains are nested as balanced trees, within SQLite's
/// expression depth.
///
/// - Comparisons: `SQLiteQuery+Comparison.swift`.
/// - `ANY` / `ALL` (and `NONE`, parsed as `NOT ANY`) over a to-many key path: a correlated
///   `EXISTS` / `NOT EXISTS … NOT (…)` subquery whose nil elements are left out.
extension SQLiteQuery {
    mutating func compile(_ predicate: CDPredicate) throws -> String {
        switch predicate.kind {
        case .constant(let value):
            return value ? "1" : "0"
        case .compound(let compound):
            let parts = try compound.subpredicates.map { try compile($0) }
            switch compound.compoundPredicateType {
            case .not: return "NOT \(parts.isEmpty ? "1" : balanced(parts, "AND"))"
            case .and: return parts.isEmpty ? "1" : balanced(parts, "AND")
            case .or: return parts.isEmpty ? "0" : balanced(parts, "OR")
            }
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    /// `(a OP b)` nested as a balanced tree: depth log2(n), not n.
    func balanced(_ parts: [String], _ op: String) -> String {
        func tree(_ parts: ArraySlice<String>) -> String {
            if parts.count == 1 { return parts.first! }
            let middle = parts.startIndex + parts.count / 2
            return "(\(tree(parts[..<middle])) \(op) \(tree(parts[middle...])))"
        }
        return tree(parts[...])
    }

    private mutating func compile(_ comparison: CDComparisonPredicate) throws -> String {
        let test = Test(op: comparison.predicateOperatorType, options: comparison.options.subtracting(.normalized), format: comparison.predicateFormat)
        if Self.isConstant(comparison.leftExpression) && Self.isConstant(comparison.rightExpression) {
            return try comparison.evaluateThrowing(with: nil) ? "1" : "0"
        }
        let left = try operand(comparison.leftExpression)
        let right = try operand(comparison.rightExpression)
        switch comparison.comparisonPredicateModifier {
        case .direct:
            return try compare(left, test, right)
        case .any, .all:
            let all = comparison.comparisonPredicateModifier == .all
            switch left {
            case .collection(var collection):
                let element = SQLOperand.scalar(collection.element)
                let condition = try inScope(&collection) { try $0.compare(element, test, right) }
                return all ? "NOT EXISTS (SELECT 1 \(collection.body(["NOT \(condition)"])))"
                           : "EXISTS (SELECT 1 \(collection.body([condition])))"
            case .constant(.array(let values)):
                return try each(values.map { SQLOperand.constant($0) }, all: all, test, right)
            case .list(let elements):
                return try each(elements, all: all, test, right)
            default:
                throw CoreDataError(.invalidPredicate, "\(comparison.predicateFormat): ANY, ALL and NONE need a collection on the left.")
            }
        }
    }

    /// ANY / ALL over the elements of a constant collection or an aggregate.
    private mutating func each(_ elements: [SQLOperand], all: Bool, _ test: Test, _ right: SQLOperand) throws -> String {
        let parts = try elements.filter { if case .constant(.null) = $0 { return false } else { return true } }.map { try compare($0, test, right) }
        if parts.isEmpty { return all ? "1" : "0" }
        return balanced(parts, all ? "AND" : "OR")
    }

    /// One comparison's operator, its options without `[n]`, and its format for errors.
    struct Test {
        let op: CDComparisonPredicate.Operator
        let options: CDComparisonPredicate.Options
        let format: String
    }
}
