import Foundation

// MARK: - AND, OR, NOT

extension PredicateExpressions.Conjunction: LoweredAsCondition {
    /// `a && b && c` is one `AND` of three, as the format parser builds it.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        CDCompoundPredicate(type: .and, subpredicates: try leftOperands(of: lhs, in: scope, type: .and) + [scope.predicate(rhs)])
    }
}

extension PredicateExpressions.Disjunction: LoweredAsCondition {
    /// `a || b || c` is one `OR` of three, as the format parser builds it.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        CDCompoundPredicate(type: .or, subpredicates: try leftOperands(of: lhs, in: scope, type: .or) + [scope.predicate(rhs)])
    }
}

/// The operands a left-nested chain of the same operator contributes (Swift's `&&` and
/// `||` associate to the left): `(a && b) && c` gives `[a, b]` for its left side.
private func leftOperands(
    of node: some PredicateExpression,
    in scope: PredicateLoweringScope,
    type: CDCompoundPredicate.LogicalType
) throws -> [CDPredicate] {
    let lowered = try scope.predicate(node)
    if case .compound(let compound) = lowered.kind, compound.compoundPredicateType == type,
       node is any LeftAssociativeLogic {
        return compound.subpredicates
    }
    return [lowered]
}

/// `&&` and `||` nodes, whose left-nested chains flatten.
private protocol LeftAssociativeLogic {}
extension PredicateExpressions.Conjunction: LeftAssociativeLogic {}
extension PredicateExpressions.Disjunction: LeftAssociativeLogic {}

extension PredicateExpressions.Negation: LoweredAsCondition {
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        CDCompoundPredicate(notPredicateWithSubpredicate: try scope.predicate(wrapped))
    }
}

// MARK: - Comparisons

extension PredicateExpressions.Equal: LoweredAsCondition {
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        try scope.expression(lhs).equalTo(scope.expression(rhs))
    }
}

extension PredicateExpressions.NotEqual: LoweredAsCondition {
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        try scope.expression(lhs).notEqualTo(scope.expression(rhs))
    }
}

extension PredicateExpressions.Comparison: LoweredAsCondition {
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        let type: CDComparisonPredicate.Operator = switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        }
        return try scope.expression(lhs).compare(type, scope.expression(rhs))
    }
}

// MARK: - Conditional

extension PredicateExpressions.Conditional: FoundationPredicateLowerable {
    /// `test ? a : b` as a value: `TERNARY(test, a, b)`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        CDExpression(
            forConditional: try scope.predicate(test),
            trueExpression: try scope.expression(trueBranch),
            falseExpression: try scope.expression(falseBranch)
        )
    }

    /// `test ? a : b` as a condition: `(test AND a) OR (NOT test AND b)`, which needs no
    /// `TERNARY` support from the store.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        let condition = try scope.predicate(test)
        return CDCompoundPredicate(orPredicateWithSubpredicates: [
            CDCompoundPredicate(andPredicateWithSubpredicates: [condition, try scope.predicate(trueBranch)]),
            CDCompoundPredicate(andPredicateWithSubpredicates: [!condition, try scope.predicate(falseBranch)]),
        ])
    }
}

// MARK: - Leaves

extension PredicateExpressions.Variable: LoweredAsValue {
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        try scope.expression(for: key)
    }
}

extension PredicateExpressions.Value: FoundationPredicateLowerable {
    /// A constant (a captured value or a literal); managed objects become their object IDs.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        return .constant(try CDValue(argument: value))
    }

    /// `true` / `false` are `TRUEPREDICATE` / `FALSEPREDICATE`.
    func loweredPredicate(in scope: PredicateLoweringScope) throws -> CDPredicate {
        if let truth = value as? Bool { return CDPredicate(value: truth) }
        return try loweredExpression(in: scope).equalTo(.bool(true))
    }
}

extension PredicateExpressions.NilLiteral: LoweredAsValue {
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        .constant(.null)
    }
}
