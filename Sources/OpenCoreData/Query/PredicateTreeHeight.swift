import Foundation

/// The height of a predicate tree — predicates, expressions and nested array constants —
/// counted up to a cap. The parser uses it to skip re-checking the limits on the canonical
/// form of a shallow tree: printing adds at most two nesting levels per tree level (a
/// parenthesis or call, plus `SUBQUERY` / `TERNARY`'s own) and one for a `CAST` leaf, so a
/// tree no higher than `PredicateLimits.maximumDepth / 3` always prints within the limits.
enum PredicateTreeHeight {
    /// Whether `predicate` is higher than `limit` levels.
    static func exceeds(_ predicate: CDPredicate, _ limit: Int) -> Bool {
        height(of: predicate, cap: limit + 1) > limit
    }

    private static func height(of predicate: CDPredicate, cap: Int) -> Int {
        guard cap > 0 else { return 0 }
        switch predicate.kind {
        case .constant:
            return 1
        case .comparison(let comparison):
            return 1 + max(height(of: comparison.leftExpression, cap: cap - 1), height(of: comparison.rightExpression, cap: cap - 1))
        case .compound(let compound):
            return 1 + (compound.subpredicates.lazy.map { height(of: $0, cap: cap - 1) }.max() ?? 0)
        }
    }

    private static func height(of expression: CDExpression, cap: Int) -> Int {
        guard cap > 0 else { return 0 }
        let below = cap - 1
        switch expression.kind {
        case .constantValue(let value):
            return height(of: value, cap: cap)
        case .evaluatedObject, .variable, .keyPath, .anyKey:
            return 1
        case .member(let base, _):
            return 1 + height(of: base, cap: below)
        case .index(let base, let index):
            if case .expression(let position) = index {
                return 1 + max(height(of: base, cap: below), height(of: position, cap: below))
            }
            return 1 + height(of: base, cap: below)
        case .function(_, let arguments), .aggregate(let arguments):
            return 1 + (arguments.lazy.map { height(of: $0, cap: below) }.max() ?? 0)
        case .customFunction(let target, _, let arguments):
            return 1 + ([target] + arguments).lazy.map { height(of: $0, cap: below) }.max()!
        case .subquery(let collection, _, let predicate):
            return 1 + max(height(of: collection, cap: below), height(of: predicate, cap: below))
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return 1 + max(height(of: predicate, cap: below), height(of: whenTrue, cap: below), height(of: whenFalse, cap: below))
        case .unionSet(let left, let right), .intersectSet(let left, let right), .minusSet(let left, let right):
            return 1 + max(height(of: left, cap: below), height(of: right, cap: below))
        }
    }

    private static func height(of value: CDValue, cap: Int) -> Int {
        guard cap > 0 else { return 0 }
        guard case .array(let elements) = value else { return 1 }
        var highest = 0
        for element in elements {
            if case .array = element { highest = max(highest, height(of: element, cap: cap - 1)) }
        }
        return 1 + highest
    }
}
