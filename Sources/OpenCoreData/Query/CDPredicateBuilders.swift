import Foundation

// MARK: - Comparisons from expressions

/// Builds comparisons without format strings:
/// `CDExpression.keyPath("age").greaterThanOrEqualTo(.constant(18))`.
extension CDExpression {
    /// A comparison of this expression (left) with `other` (right).
    public func compare(
        _ type: CDComparisonPredicate.Operator,
        _ other: CDExpression,
        modifier: CDComparisonPredicate.Modifier = .direct,
        options: CDComparisonPredicate.Options = []
    ) -> CDComparisonPredicate {
        CDComparisonPredicate(leftExpression: self, rightExpression: other, modifier: modifier, type: type, options: options)
    }

    /// `self == other`.
    public func equalTo(_ other: CDExpression) -> CDComparisonPredicate { compare(.equalTo, other) }
    /// `self != other`.
    public func notEqualTo(_ other: CDExpression) -> CDComparisonPredicate { compare(.notEqualTo, other) }
    /// `self < other`.
    public func lessThan(_ other: CDExpression) -> CDComparisonPredicate { compare(.lessThan, other) }
    /// `self <= other`.
    public func lessThanOrEqualTo(_ other: CDExpression) -> CDComparisonPredicate {
        compare(.lessThanOrEqualTo, other)
    }
    /// `self > other`.
    public func greaterThan(_ other: CDExpression) -> CDComparisonPredicate { compare(.greaterThan, other) }
    /// `self >= other`.
    public func greaterThanOrEqualTo(_ other: CDExpression) -> CDComparisonPredicate {
        compare(.greaterThanOrEqualTo, other)
    }

    /// `self == value`, for a constant.
    public func equalTo(_ value: CDValue) -> CDComparisonPredicate { compare(.equalTo, .constant(value)) }
    /// `self != value`, for a constant.
    public func notEqualTo(_ value: CDValue) -> CDComparisonPredicate { compare(.notEqualTo, .constant(value)) }
    /// `self < value`, for a constant.
    public func lessThan(_ value: CDValue) -> CDComparisonPredicate { compare(.lessThan, .constant(value)) }
    /// `self <= value`, for a constant.
    public func lessThanOrEqualTo(_ value: CDValue) -> CDComparisonPredicate {
        compare(.lessThanOrEqualTo, .constant(value))
    }
    /// `self > value`, for a constant.
    public func greaterThan(_ value: CDValue) -> CDComparisonPredicate { compare(.greaterThan, .constant(value)) }
    /// `self >= value`, for a constant.
    public func greaterThanOrEqualTo(_ value: CDValue) -> CDComparisonPredicate {
        compare(.greaterThanOrEqualTo, .constant(value))
    }
}

// MARK: - Logical operators

extension CDPredicate {
    /// `lhs AND rhs`.
    public static func && (lhs: CDPredicate, rhs: CDPredicate) -> CDCompoundPredicate {
        CDCompoundPredicate(andPredicateWithSubpredicates: [lhs, rhs])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: CDPredicate, rhs: CDPredicate) -> CDCompoundPredicate {
        CDCompoundPredicate(orPredicateWithSubpredicates: [lhs, rhs])
    }

    /// `NOT predicate`.
    public static prefix func ! (predicate: CDPredicate) -> CDCompoundPredicate {
        CDCompoundPredicate(notPredicateWithSubpredicate: predicate)
    }
}
