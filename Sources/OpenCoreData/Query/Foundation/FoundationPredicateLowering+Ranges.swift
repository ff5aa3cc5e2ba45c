import Foundation

// MARK: - Ranges

extension PredicateExpressions.RangeExpressionContains: LoweredAsCondition {
    /// `(lo...hi).contains($0.x)` is `x BETWEEN {lo, hi}`; `(lo..<hi).contains($0.x)` is
    /// `x >= lo AND x < hi`.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        guard let bounds = range as? any LowerableRange else {
            throw CoreDataError.unloweredPredicate("contains(_:) of a captured range has no Core Data form; capture its bounds instead")
        }
        let value = try scope.expression(element)
        let (lower, upper) = try bounds.loweredBounds(in: scope)
        guard bounds.includesUpperBound else {
            return value.greaterThanOrEqualTo(lower) && value.lessThan(upper)
        }
        return value.compare(.between, CDExpression(forAggregate: [lower, upper]))
    }
}

/// A range built in the predicate (`lo...hi`, `lo..<hi`) with bounds to lower.
private protocol LowerableRange {
    var includesUpperBound: Bool { get }
    func loweredBounds(in scope: PredicateLoweringScope) throws -> (lower: CDExpression, upper: CDExpression)
}

extension PredicateExpressions.ClosedRange: LowerableRange {
    fileprivate var includesUpperBound: Bool { true }
    fileprivate func loweredBounds(in scope: PredicateLoweringScope) throws -> (lower: CDExpression, upper: CDExpression) {
        (try scope.expression(lower), try scope.expression(upper))
    }
}

extension PredicateExpressions.Range: LowerableRange {
    fileprivate var includesUpperBound: Bool { false }
    fileprivate func loweredBounds(in scope: PredicateLoweringScope) throws -> (lower: CDExpression, upper: CDExpression) {
        (try scope.expression(lower), try scope.expression(upper))
    }
}
