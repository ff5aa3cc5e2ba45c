import Foundation

// MARK: - Membership

extension PredicateExpressions.SequenceContains: LoweredAsCondition {
    /// `["a", "b"].contains($0.title)` is `title IN {"a", "b"}` (the array as one constant,
    /// as `title IN %@` gives it).
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        try scope.expression(element).compare(.in, scope.expression(sequence))
    }
}

// MARK: - Strings

extension PredicateExpressions.CollectionContainsCollection: LoweredAsCondition {
    /// `$0.title.contains("milk")` is `title CONTAINS "milk"`.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        guard Base.Output.self is any StringProtocol.Type else {
            throw CoreDataError.unloweredPredicate("contains(_:) of a non-string collection has no Core Data form")
        }
        return try scope.expression(base).compare(.contains, scope.expression(other)).matchingEmptyPattern()
    }
}

extension PredicateExpressions.SequenceStartsWith: LoweredAsCondition {
    /// `$0.title.starts(with: "Mi")` is `title BEGINSWITH "Mi"`.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        guard Base.Output.self is any StringProtocol.Type else {
            throw CoreDataError.unloweredPredicate("starts(with:) of a non-string sequence has no Core Data form")
        }
        return try scope.expression(base).compare(.beginsWith, scope.expression(prefix)).matchingEmptyPattern()
    }
}

extension CDComparisonPredicate {
    /// Swift's `contains("")` and `starts(with: "")` are true, Core Data's `CONTAINS ""`
    /// and `BEGINSWITH ""` false: an empty constant pattern is `TRUEPREDICATE`, another
    /// pattern also matches when empty.
    func matchingEmptyPattern() -> CDPredicate {
        switch rightExpression.kind {
        case .constantValue(.string(let pattern)):
            return pattern.isEmpty ? CDPredicate(value: true) : self
        case .constantValue:
            return self
        default:
            return rightExpression.equalTo(.string("")) || self
        }
    }
}

// MARK: - To-many relationships

extension PredicateExpressions.SequenceContainsWhere: LoweredAsCondition {
    /// `$0.children.contains { $0.title == "a" }` is `ANY children.title == "a"` when the
    /// test compares one property of the element with a non-nil constant (where `ANY`'s
    /// dropping of nils cannot change the answer), else
    /// `SUBQUERY(children, $x, test).@count > 0`.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        let (collection, name, condition) = try loweredSubquery(sequence, variable, self.test, in: scope)
        if let any = anyComparison(over: collection, iterating: name, test: condition) { return any }
        return CDExpression(forSubquery: collection, usingIteratorVariable: name, predicate: condition)
            .appendingKeyPath("@count").greaterThan(0)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: LoweredAsCondition {
    /// `$0.children.allSatisfy { test }` is `SUBQUERY(children, $x, NOT test).@count == 0`
    /// (true for no children, as in Swift).
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        let (collection, name, condition) = try loweredSubquery(sequence, variable, self.test, in: scope)
        return CDExpression(forSubquery: collection, usingIteratorVariable: name, predicate: !condition)
            .appendingKeyPath("@count").equalTo(0)
    }
}

extension PredicateExpressions.Filter: LoweredAsValue {
    /// `$0.children.filter { test }` is `SUBQUERY(children, $x, test)`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let (collection, name, condition) = try loweredSubquery(sequence, variable, filter, in: scope)
        return CDExpression(forSubquery: collection, usingIteratorVariable: name, predicate: condition)
    }
}

/// A to-many collection, its iteration variable's name and the test on each element.
private func loweredSubquery<Sequence: PredicateExpression, Element, Test: PredicateExpression>(
    _ sequence: Sequence,
    _ variable: PredicateExpressions.Variable<Element>,
    _ test: Test,
    in scope: PredicateLoweringScope
) throws -> (collection: CDExpression, variable: String, test: CDPredicate) {
    guard Element.self is ManagedObject.Type else {
        throw CoreDataError.unloweredPredicate("a closure over elements of type \(Element.self) has no Core Data form; only to-many relationships can be searched")
    }
    let collection = try scope.expression(sequence)
    let (inner, name) = scope.enteringSubquery(with: variable)
    return (collection, name, try inner.predicate(test))
}

/// `ANY collection.key op constant` for a test `$x.key op constant`, or nil when the test
/// has another shape or an operator for which `ANY` (which skips nil values) would answer
/// differently from Swift (`!=`).
private func anyComparison(over collection: CDExpression, iterating name: String, test: CDPredicate) -> CDPredicate? {
    guard case .comparison(let comparison) = test.kind,
          comparison.comparisonPredicateModifier == .direct,
          comparison.predicateOperatorType != .notEqualTo,
          case .member(let element, let keyPath) = comparison.leftExpression.kind,
          element == .variable(name), !keyPath.contains("@"),
          case .constantValue(let constant) = comparison.rightExpression.kind, !constant.isNull
    else { return nil }
    switch collection.kind {
    case .keyPath, .member: break
    default: return nil
    }
    return collection.appendingKeyPath(keyPath).compare(
        comparison.predicateOperatorType, comparison.rightExpression, modifier: .any, options: comparison.options
    )
}
