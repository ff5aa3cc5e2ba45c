import Foundation

// MARK: - Public entry points

extension CDPredicate {
    /// Whether `object` — a `KeyValueCoding` object (such as a `ManagedObject`) or a
    /// `[String: Any]` dictionary — satisfies the predicate. A predicate that cannot be
    /// evaluated against the object (see `evaluateThrowing(with:)`) is not satisfied.
    public func evaluate(with object: Any?) -> Bool {
        (try? evaluateThrowing(with: object)) ?? false
    }

    /// Like `evaluate(with:)`, but reports why a predicate cannot be evaluated: a key read
    /// from a value that has no keys, an unbound variable, or a part of the language the
    /// evaluator does not support yet — all as `.invalidPredicate`.
    package func evaluateThrowing(with object: Any?) throws -> Bool {
        try PredicateEvaluator.evaluate(self, with: object)
    }
}

// MARK: - Evaluation

/// In-memory evaluation of predicate trees, with `ValueComparison`'s rules.
enum PredicateEvaluator {
    static func evaluate(_ predicate: CDPredicate, with object: Any?) throws -> Bool {
        switch predicate.kind {
        case .constant(let value):
            return value
        case .comparison(let comparison):
            return try evaluate(comparison, with: object)
        case .compound(let compound):
            switch compound.compoundPredicateType {
            case .and:
                for subpredicate in compound.subpredicates where try !evaluate(subpredicate, with: object) { return false }
                return true
            case .or:
                for subpredicate in compound.subpredicates where try evaluate(subpredicate, with: object) { return true }
                return false
            case .not:
                for subpredicate in compound.subpredicates where try !evaluate(subpredicate, with: object) { return true }
                return false
            }
        }
    }

    private static func evaluate(_ comparison: CDComparisonPredicate, with object: Any?) throws -> Bool {
        guard comparison.comparisonPredicateModifier == .direct else {
            throw notSupported("the ANY and ALL modifiers", in: comparison)
        }
        guard comparison.options.subtracting(.normalized).isEmpty else {
            throw notSupported("comparison options [c] and [d]", in: comparison)
        }
        let left = try value(of: comparison.leftExpression, with: object)
        let right = try value(of: comparison.rightExpression, with: object)
        switch comparison.predicateOperatorType {
        case .equalTo: return ValueComparison.isEqual(left, right)
        case .notEqualTo: return !ValueComparison.isEqual(left, right)
        case .lessThan: return ValueComparison.order(left, right) == .orderedAscending
        case .lessThanOrEqualTo: return [.orderedAscending, .orderedSame].contains(ValueComparison.order(left, right))
        case .greaterThan: return ValueComparison.order(left, right) == .orderedDescending
        case .greaterThanOrEqualTo: return [.orderedDescending, .orderedSame].contains(ValueComparison.order(left, right))
        case .matches, .like, .beginsWith, .endsWith, .in, .contains, .between:
            throw notSupported("the \(PredicateFormatPrinter.symbol(for: comparison.predicateOperatorType)) operator", in: comparison)
        }
    }

    /// The value of an expression for `object`: a `CDValue` for constants, else what the
    /// object holds.
    static func value(of expression: CDExpression, with object: Any?) throws -> Any? {
        switch expression.kind {
        case .constantValue(let value):
            return value
        case .evaluatedObject:
            return object
        case .keyPath(let path):
            return try KeyPathReader.value(of: object, keyPath: path)
        case .member(let base, let path):
            return try KeyPathReader.value(of: try value(of: base, with: object), keyPath: path)
        case .variable(let name):
            throw CoreDataError(.invalidPredicate, "The variable $\(name) has no value; substitute it before evaluating")
        case .index, .function, .customFunction, .aggregate, .subquery, .conditional,
             .unionSet, .intersectSet, .minusSet, .anyKey:
            throw CoreDataError(.invalidPredicate, "Evaluating the expression \(expression.format) is not supported yet")
        }
    }

    private static func notSupported(_ feature: String, in comparison: CDComparisonPredicate) -> CoreDataError {
        CoreDataError(.invalidPredicate, "Evaluating \(feature) (in \(comparison.predicateFormat)) is not supported yet")
    }
}
